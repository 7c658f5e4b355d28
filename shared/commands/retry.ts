import { ApiError } from '../http/errors.ts';
import { isStorageConflict } from '../db/errors.ts';
import { logger } from '../observability/logger.ts';

/**
 * An answer that retrying would not change (404, 400, the last-admin 409). Every other
 * 409 raised inside `retryOnConflict`, and a storage conflict (a failed condition on
 * something read moments before, a TransactionConflict), means a concurrent writer got
 * there first.
 */
export class Rejection extends ApiError {}

/**
 * How long a writer keeps retrying after conflicts before the last one answers 409. A count
 * of attempts was not enough: writers of one record (10 change requests merged while templates
 * are applied, 20 batches into one change request) each lose to the others several times,
 * and on a loaded machine 8 attempts, then 10 s, ran out before every writer had its turn
 * (one attempt there takes ~0.5 s, and only one writer wins a round). 18 s lets such a queue
 * drain and leaves the last attempt room inside the API Lambda's 29 s.
 */
export const CONFLICT_RETRY_BUDGET_MS = 18_000;
/** Attempts made whatever the clock says, so a slow first attempt is still retried. */
const MIN_ATTEMPTS = 4;

export interface RetryOptions {
  /** Which errors mean "a concurrent writer got there first" (default: storage conflicts and 409s that are not Rejections). */
  retryable?: (error: unknown) => boolean;
  /** The clock and the pause, for tests. */
  clock?: { now(): number; sleep(ms: number): Promise<void> };
}

const realClock = { now: Date.now, sleep: (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)) };

const concurrentWriter = (error: unknown) =>
  isStorageConflict(error) || (error instanceof ApiError && error.status === 409 && !(error instanceof Rejection));

/**
 * Runs read-then-write work again, from a fresh read, when a concurrent writer made its
 * conditions fail: after a jittered exponential pause, for up to CONFLICT_RETRY_BUDGET_MS
 * (and at least MIN_ATTEMPTS attempts); then the last conflict is thrown as is. Every path
 * that retries after a conflict goes through here, so the budget is one rule.
 */
export async function retryOnConflict<T>(work: (attempt: number) => Promise<T>, options: RetryOptions = {}): Promise<T> {
  const { retryable = concurrentWriter, clock = realClock } = options;
  const started = clock.now();
  for (let attempt = 0; ; attempt++) {
    try {
      return await work(attempt);
    } catch (error) {
      if (!retryable(error)) throw error;
      const pause = conflictPauseMs(attempt);
      const spent = clock.now() - started;
      if (attempt + 1 >= MIN_ATTEMPTS && spent + pause > CONFLICT_RETRY_BUDGET_MS) {
        // Lasting contention on one record is worth an operator's look (the caller gets its 409).
        logger.warn('conflict retries spent', { attempts: attempt + 1, spentMs: spent, error: error as Error });
        throw error;
      }
      await clock.sleep(pause);
    }
  }
}

/**
 * The wait before attempt `attempt + 1` after a conflict: jittered and exponential (10 ms
 * doubling, capped at 500 ms), so writers that collided spread out instead of colliding again.
 */
function conflictPauseMs(attempt: number): number {
  const base = Math.min(500, 10 * 2 ** attempt);
  return base + Math.random() * base;
}

/** Splits a list into chunks of at most `size`. */
export function chunked<T>(items: T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}
