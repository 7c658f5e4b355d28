import { roundTripCounter, withoutRoundTripCount } from '../observability/context.ts';

const settled = () => {};

/**
 * DynamoDB round trips per HTTP request (the x-db-round-trips header and the access line),
 * counted in the request's context (shared/observability/context.ts): observeRequests
 * starts the count, the DynamoDB client's middleware adds to it. A round trip that starts
 * while none of the request's is in flight starts a new step (x-db-steps): what the request
 * waits on one after the other. Call the returned function when the round trip ends.
 */
export function startRoundTrip(): () => void {
  const counter = roundTripCounter();
  if (!counter) return settled;
  counter.count++;
  if (counter.inFlight === 0) counter.steps++;
  counter.inFlight++;
  return () => {
    counter.inFlight--;
  };
}

export function roundTrips(): number {
  return roundTripCounter()?.count ?? 0;
}

export function roundTripSteps(): number {
  return roundTripCounter()?.steps ?? 0;
}

/**
 * Runs `fn` outside the request's count. Only for a write issued concurrently with a
 * counted round trip that the request waits on anyway (the rate-limit counter beside the
 * authentication read), so it adds no sequential round trip of its own.
 */
export function untraced<T>(fn: () => T): T {
  return withoutRoundTripCount(fn);
}
