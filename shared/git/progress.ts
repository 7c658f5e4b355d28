/**
 * The visible progress of a Git job: markdown files (pages and reusable contents) and files
 * done out of their totals, and the bytes read (import) or written (export). Counting is
 * synchronous and free; the count is saved on the operation record once per
 * PROGRESS_SAVE_INTERVAL_MS, or sooner when another step of the job's items is done
 * (progressStep), one write at a time, so a job of any size makes a bounded number of writes
 * and every write is newer than the previous one (pagesDone never goes back).
 */
import { logger } from '../observability/logger.ts';
import { warnIfNearDeadline } from './deadline.ts';

export interface GitProgress {
  pagesDone: number;
  pagesTotal: number;
  filesDone: number;
  filesTotal: number;
  bytes: number;
}

/** What import and export report to; they do not know where it is saved. */
export interface ProgressSink {
  totals(pages: number, files: number): void;
  page(bytes: number): void;
  file(bytes: number): void;
  /** Bytes that belong to no page or file (SUMMARY.md, .gitbook.yaml). */
  bytes(count: number): void;
}

/** For callers that do not watch (tests, benchmarks). */
export const silentProgress: ProgressSink = { totals() {}, page() {}, file() {}, bytes() {} };

export const PROGRESS_SAVE_INTERVAL_MS = 1000;
/** The fewest items between two writes that are not due by time. */
export const PROGRESS_SAVE_EVERY_ITEMS = 50;
/** A job's items make at most this many steps that are saved before their second is up. */
export const PROGRESS_STEPS = 10;

/**
 * Items done between two writes that are not due by time: a tenth of the job, at least 50. A
 * short job still shows its progress moving, and a long one is saved by time: a 1,200-item
 * import made 24 writes at every 50 items (each a DynamoDB write of its own, issue 17's
 * benchmark), now 10.
 */
export function progressStep(totalItems: number): number {
  return Math.max(PROGRESS_SAVE_EVERY_ITEMS, Math.ceil(totalItems / PROGRESS_STEPS));
}

export class ProgressTracker implements ProgressSink {
  private current: GitProgress = { pagesDone: 0, pagesTotal: 0, filesDone: 0, filesTotal: 0, bytes: 0 };
  private itemsSinceSave = 0;
  private step = PROGRESS_SAVE_EVERY_ITEMS;
  private lastSave = 0;
  private dirty = false;
  private saving: Promise<void> | undefined;

  private readonly save: (progress: GitProgress) => Promise<void>;
  private readonly now: () => number;

  constructor(save: (progress: GitProgress) => Promise<void>, now: () => number = Date.now) {
    this.save = save;
    this.now = now;
  }

  snapshot(): GitProgress {
    return { ...this.current };
  }

  /** Totals change the picture at once: saved without waiting for the interval. */
  totals(pages: number, files: number): void {
    if (pages === this.current.pagesTotal && files === this.current.filesTotal) return;
    this.current.pagesTotal = pages;
    this.current.filesTotal = files;
    this.step = progressStep(pages + files);
    this.changed(true);
  }

  page(bytes: number): void {
    this.current.pagesDone++;
    this.current.bytes += bytes;
    this.itemsSinceSave++;
    this.changed();
  }

  file(bytes: number): void {
    this.current.filesDone++;
    this.current.bytes += bytes;
    this.itemsSinceSave++;
    this.changed();
  }

  bytes(count: number): void {
    this.current.bytes += count;
    this.changed();
  }

  /** Waits for the write in flight, so that nothing older lands after the job's final record. */
  async settle(): Promise<void> {
    while (this.saving) await this.saving;
  }

  private changed(now = false): void {
    this.dirty = true;
    const due = now || this.itemsSinceSave >= this.step || this.now() - this.lastSave >= PROGRESS_SAVE_INTERVAL_MS;
    if (due && !this.saving) this.saving = this.write();
  }

  /** One write at a time; when more changed meanwhile and is due, the next one follows. */
  private async write(): Promise<void> {
    const progress = this.snapshot();
    this.itemsSinceSave = 0;
    this.lastSave = this.now();
    this.dirty = false;
    warnIfNearDeadline({ progress });
    try {
      await this.save(progress);
    } catch (error) {
      // Progress is informative: a failed write must not fail the job (the outcome is written anyway).
      logger.warn('git progress not saved', { error: error as Error });
    } finally {
      this.saving = undefined;
    }
    if (this.dirty && this.itemsSinceSave >= this.step) this.saving = this.write();
  }
}
