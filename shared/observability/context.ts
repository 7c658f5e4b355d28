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

const store = new AsyncLocalStorage<LogContext>();

export function runWithLogContext<T>(context: LogContext, fn: () => Promise<T>): Promise<T> {
  return store.run({ ...context }, fn);
}

export const logContext = (): LogContext | undefined => store.getStore();

/** The keys worth a log field: the tenant a request or job works on. */
const APPENDED_KEYS = ['organizationId', 'spaceId'] as const;

/** Adds organizationId/spaceId to the current context (from path parameters or a job). */
export function appendLogKeys(values: ReadonlyMap<string, string> | Record<string, unknown>): void {
  const context = store.getStore();
  if (!context) return;
  const get = (key: string) => (values instanceof Map ? values.get(key) : (values as Record<string, unknown>)[key]);
  for (const key of APPENDED_KEYS) {
    const value = get(key);
    if (typeof value === 'string' && value) context[key] = value;
  }
}
