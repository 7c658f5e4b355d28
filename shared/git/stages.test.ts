import { describe, expect, it } from 'vitest';
import { StageWriter } from './stages.ts';

const tick = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('StageWriter', () => {
  it('returns at once and writes the stages one after another, in the order entered', async () => {
    const log: string[] = [];
    // The first write is the slowest: a writer that did not wait for it would finish the others first.
    const delays: Record<string, number> = { cloning: 30, reading: 10, writing: 0 };
    const writer = new StageWriter(async (stage) => {
      log.push(`start ${stage}`);
      await tick(delays[stage] ?? 0);
      log.push(`end ${stage}`);
    });
    const before = performance.now();
    for (const stage of ['cloning', 'reading', 'writing']) writer.enter(stage);
    expect(performance.now() - before).toBeLessThan(5);
    expect(log).toEqual([]);
    await writer.settle();
    expect(log).toEqual(['start cloning', 'end cloning', 'start reading', 'end reading', 'start writing', 'end writing']);
  });

  it('goes on after a failed write, and settle waits for every stage entered', async () => {
    const saved: string[] = [];
    const writer = new StageWriter(async (stage) => {
      await tick(5);
      if (stage === 'reading') throw new Error('throttled');
      saved.push(stage);
    });
    writer.enter('cloning');
    writer.enter('reading');
    writer.enter('writing');
    await expect(writer.settle()).resolves.toBeUndefined();
    expect(saved).toEqual(['cloning', 'writing']);
    writer.enter('saving');
    await writer.settle();
    expect(saved).toEqual(['cloning', 'writing', 'saving']);
  });
});
