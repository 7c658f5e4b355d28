import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * What every log line of one request or job carries: the API Gateway request id (or the
 * SQS message id), the correlation id, and the organization and space once known. Kept in
 * AsyncLocalStorage rather than on the logger, because the local server (and a
 * multi-concurrency Lambda) runs many requests at once on one logger.
 */
export interface LogContext {
  request_id: string;
  correlation_id: string;
  organizationId?: string;
  spaceId?: string;
}

/**
 * One store for everything a request or job carries (its log fields and, for HTTP requests,
 * its DynamoDB round-trip count): each AsyncLocalStorage in use is copied onto every promise
 * the request creates, so one store costs half of two (issue 17).
 */
interface RequestContext {
  log: LogContext;
  /** Counted for HTTP requests (x-db-round-trips, the access line); absent in jobs. */
  roundTrips?: RoundTripCounter;
}

/** `steps`: how many times a round trip started while none was in flight (the request's sequential storage steps). */
export interface RoundTripCounter {
  count: number;
  steps: number;
  inFlight: number;
}

const store = new AsyncLocalStorage<RequestContext>();

export function runWithLogContext<T>(context: LogContext, fn: () => Promise<T>, options: { countRoundTrips?: boolean } = {}): Promise<T> {
  return store.run({ log: { ...context }, ...(options.countRoundTrips ? { roundTrips: { count: 0, steps: 0, inFlight: 0 } } : {}) }, fn);
}

export const logContext = (): LogContext | undefined => store.getStore()?.log;

/** The current request's round-trip counter (shared/db/trace.ts), if it counts them. */
export const roundTripCounter = (): RoundTripCounter | undefined => store.getStore()?.roundTrips;

/** Runs `fn` with the same log fields but outside the request's round-trip count. */
export function withoutRoundTripCount<T>(fn: () => T): T {
  const current = store.getStore();
  return current?.roundTrips ? store.run({ log: current.log }, fn) : fn();
}

/** The keys worth a log field: the tenant a request or job works on. */
const APPENDED_KEYS = ['organizationId', 'spaceId'] as const;

/** Adds organizationId/spaceId to the current context (from path parameters or a job). */
export function appendLogKeys(values: ReadonlyMap<string, string> | Record<string, unknown>): void {
  const context = store.getStore()?.log;
  if (!context) return;
  const get = (key: string) => (values instanceof Map ? values.get(key) : (values as Record<string, unknown>)[key]);
  for (const key of APPENDED_KEYS) {
    const value = get(key);
    if (typeof value === 'string' && value) context[key] = value;
  }
}
