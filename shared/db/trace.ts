import { roundTripCounter, withoutRoundTripCount } from '../observability/context.ts';

/**
 * DynamoDB round trips per HTTP request (the x-db-round-trips header and the access line),
 * counted in the request's context (shared/observability/context.ts): observeRequests
 * starts the count, the DynamoDB client's middleware adds to it.
 */
export function countRoundTrip(): void {
  const counter = roundTripCounter();
  if (counter) counter.count++;
}

export function roundTrips(): number {
  return roundTripCounter()?.count ?? 0;
}

/**
 * Runs `fn` outside the request's count. Only for a write issued concurrently with a
 * counted round trip that the request waits on anyway (the rate-limit counter beside the
 * authentication read), so it adds no sequential round trip of its own.
 */
export function untraced<T>(fn: () => T): T {
  return withoutRoundTripCount(fn);
}
