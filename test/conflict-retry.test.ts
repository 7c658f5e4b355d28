import { describe, expect, it } from 'vitest';
import { CONFLICT_RETRY_BUDGET_MS, Rejection, retryOnConflict } from '../shared/commands/retry.ts';
import { ConditionFailed, NotFound, TransactionConflict } from '../shared/db/errors.ts';
import { conflict } from '../shared/http/errors.ts';

/** A clock that pauses advance, so no test waits. */
function fakeClock() {
  const clock = { time: 0, now: () => clock.time, sleep: async (ms: number) => { clock.time += ms; } };
  return clock;
}

// The retry rule every conflicting writer goes through (the HTTP behaviour is in
// concurrent-writers.test.ts): conflicts are retried for a time budget, not a count.
describe('retryOnConflict', () => {
  it('keeps retrying conflicts while the budget lasts, past the old eight attempts', async () => {
    const clock = fakeClock();
    let calls = 0;
    const result = await retryOnConflict(async (attempt) => {
      calls++;
      clock.time += 100; // each attempt takes 100 ms, and the pauses count too
      if (attempt < 11) throw attempt % 2 ? new TransactionConflict() : conflict('moved; retry');
      return 'landed';
    }, { clock });
    expect(result).toBe('landed');
    expect(calls).toBe(12);
    expect(clock.time).toBeLessThan(CONFLICT_RETRY_BUDGET_MS);
  });

  it('answers the last conflict once the budget is spent, after at least four attempts', async () => {
    const clock = fakeClock();
    const seen: number[] = [];
    const failing = retryOnConflict(async (attempt) => {
      seen.push(attempt);
      clock.time += CONFLICT_RETRY_BUDGET_MS / 2; // two attempts spend it all
      throw new ConditionFailed(undefined);
    }, { clock });
    await expect(failing).rejects.toBeInstanceOf(ConditionFailed);
    expect(seen).toEqual([0, 1, 2, 3]);
  });

  it('never retries what another attempt would answer the same', async () => {
    for (const error of [new Rejection(409, 'merged'), new NotFound(undefined), new Error('bug'), conflict('x')]) {
      let calls = 0;
      const retryable = error.message === 'x' ? () => false : undefined;
      await expect(retryOnConflict(async () => {
        calls++;
        throw error;
      }, { retryable, clock: fakeClock() })).rejects.toBe(error);
      expect(calls, error.message).toBe(1);
    }
  });
});
