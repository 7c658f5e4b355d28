import { ApiError } from '../http/errors.ts';
import { isStorageConflict } from '../db/errors.ts';

/**
 * An answer that retrying would not change (404, 400, the last-admin 409). Every other
 * 409 raised inside `retryOnConflict`, and a storage conflict (a failed condition on
 * something read moments before, a TransactionConflict), means a concurrent writer got
 * there first.
 */
export class Rejection extends ApiError {}

/**
 * Runs read-then-write work again, from a fresh read, when a concurrent writer made its
 * conditions fail. Jittered exponential backoff; the last conflict is thrown as is.
 */
export async function retryOnConflict<T>(work: (attempt: number) => Promise<T>, attempts = 8): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await work(attempt);
    } catch (error) {
      const retryable = isStorageConflict(error) || (error instanceof ApiError && error.status === 409 && !(error instanceof Rejection));
      if (!retryable || attempt + 1 >= attempts) throw error;
      await conflictPause(attempt);
    }
  }
}

/**
 * The wait before attempt `attempt + 1` after a conflict: jittered and exponential (10 ms
 * doubling, capped at 500 ms), so writers that collided spread out instead of colliding again.
 */
export function conflictPause(attempt: number): Promise<void> {
  const base = Math.min(500, 10 * 2 ** attempt);
  return new Promise((resolve) => setTimeout(resolve, base + Math.random() * base));
}

/** Splits a list into chunks of at most `size`. */
export function chunked<T>(items: T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}
