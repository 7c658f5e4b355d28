/**
 * The Lambda invocation's remaining time, for the Git worker: a job that is still running
 * when less than NEAR_DEADLINE_MS remain logs one warning with its progress, so a timeout
 * (after which SQS retries the job from the start) can be told apart from a hang and the
 * function's timeout sized. The local server runs jobs without a Lambda context: no deadline.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { logger } from '../observability/logger.ts';

export const NEAR_DEADLINE_MS = 30_000;

interface Deadline {
  remainingMs: () => number;
  warned: boolean;
}

const store = new AsyncLocalStorage<Deadline>();

/** Runs an invocation with its Lambda context's clock (none: no deadline). */
export function withDeadline<T>(context: { getRemainingTimeInMillis(): number } | undefined, fn: () => Promise<T>): Promise<T> {
  if (!context) return fn();
  return store.run({ remainingMs: () => context.getRemainingTimeInMillis(), warned: false }, fn);
}

/** Logs once per invocation when the job is about to run out of time. */
export function warnIfNearDeadline(details: Record<string, unknown> = {}): void {
  const deadline = store.getStore();
  if (!deadline || deadline.warned) return;
  const remainingMs = deadline.remainingMs();
  if (remainingMs >= NEAR_DEADLINE_MS) return;
  deadline.warned = true;
  logger.warn('git job close to the Lambda timeout', { remainingMs, ...details });
}
