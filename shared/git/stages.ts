/**
 * The stage a Git job is in ('cloning', 'reading', 'writing', 'pushing', 'saving'), saved on
 * its operation record one write after another without holding the job up: each was a
 * DynamoDB round trip on the job's path (four or five a job). Like progress, a stage is
 * informative, so a failed write is logged and does not fail the job. The job's outcome
 * removes `stage`, so every path settles the stages before writing it (an older write landing
 * after would show a stage on a finished operation).
 */
import { logger } from '../observability/logger.ts';
import { warnIfNearDeadline } from './deadline.ts';

export class StageWriter {
  private written: Promise<void> = Promise.resolve();

  private readonly save: (stage: string) => Promise<void>;

  constructor(save: (stage: string) => Promise<void>) {
    this.save = save;
  }

  /** Queues the stage's write after the ones before it, and returns at once. */
  enter(stage: string): void {
    warnIfNearDeadline({ stage });
    this.written = this.written.then(() => this.save(stage)).catch((error: unknown) => {
      logger.warn('git stage not saved', { stage, error: error as Error });
    });
  }

  /** Resolves once every stage entered so far is written (or has failed and been logged). */
  settle(): Promise<void> {
    return this.written;
  }
}
