import { describe, expect, it } from 'vitest';
import { PROGRESS_SAVE_EVERY_ITEMS, PROGRESS_SAVE_INTERVAL_MS, ProgressTracker, progressStep, type GitProgress } from './progress.ts';

/** A tracker whose writes are recorded and whose clock only moves when told. */
function tracker() {
  const writes: GitProgress[] = [];
  let now = 1_000_000;
  const progress = new ProgressTracker(async (snapshot) => {
    writes.push(snapshot);
  }, () => now);
  return { progress, writes, advance: (ms: number) => (now += ms) };
}

/** Lets the tracker's write in flight finish (and the one it chains). */
const settle = (progress: ProgressTracker) => progress.settle();

describe('git progress writes', () => {
  it('saves a short job at every 50 items, a long one at every tenth of its items', () => {
    expect(progressStep(0)).toBe(PROGRESS_SAVE_EVERY_ITEMS);
    expect(progressStep(361)).toBe(50);
    expect(progressStep(1200)).toBe(120);
    expect(progressStep(10_001)).toBe(1001);
  });

  it('makes one write for the totals and one per step of a 1,200-item job done within its second', async () => {
    const { progress, writes } = tracker();
    progress.totals(1000, 200);
    await settle(progress);
    for (let i = 0; i < 1000; i++) {
      progress.page(10);
      await settle(progress);
    }
    for (let i = 0; i < 200; i++) {
      progress.file(100);
      await settle(progress);
    }
    // The totals, then items 120, 240, ... 1,200: eleven writes, each newer than the last.
    expect(writes).toHaveLength(11);
    expect(writes[0]).toMatchObject({ pagesDone: 0, pagesTotal: 1000, filesTotal: 200 });
    expect(writes.map((w) => w.pagesDone + w.filesDone)).toEqual([0, 120, 240, 360, 480, 600, 720, 840, 960, 1080, 1200]);
    expect(writes.at(-1)).toEqual({ pagesDone: 1000, pagesTotal: 1000, filesDone: 200, filesTotal: 200, bytes: 30_000 });
  });

  it('saves by time between steps once a second has passed', async () => {
    const { progress, writes, advance } = tracker();
    progress.totals(1000, 0);
    await settle(progress);
    progress.page(1);
    await settle(progress);
    expect(writes).toHaveLength(1);
    advance(PROGRESS_SAVE_INTERVAL_MS);
    progress.page(1);
    await settle(progress);
    expect(writes).toHaveLength(2);
    expect(writes[1]).toMatchObject({ pagesDone: 2 });
  });
});
