import { AsyncLocalStorage } from 'node:async_hooks';

/** Counts DynamoDB round trips per HTTP request (reported in the x-db-round-trips header). */
const store = new AsyncLocalStorage<{ roundTrips: number }>();

export function runTraced<T>(fn: () => Promise<T>): Promise<T> {
  return store.run({ roundTrips: 0 }, fn);
}

export function countRoundTrip(): void {
  const s = store.getStore();
  if (s) s.roundTrips++;
}

export function roundTrips(): number {
  return store.getStore()?.roundTrips ?? 0;
}

/**
 * Runs `fn` outside the request's count. Only for a write issued concurrently with a
 * counted round trip that the request waits on anyway (the rate-limit counter beside the
 * authentication read), so it adds no sequential round trip of its own.
 */
export function untraced<T>(fn: () => T): T {
  return store.exit(fn);
}
