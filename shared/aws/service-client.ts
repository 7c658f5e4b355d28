import { captureClient } from '../observability/tracer.ts';

/**
 * Every AWS SDK client of the service is made through here: traced (an X-Ray subsegment per
 * call in AWS, a no-op elsewhere) and without the SDK's logger middleware. The service gives
 * the SDK no logger, yet that middleware still passes every call's input and output through
 * the command's sensitive-data filter for the default no-op logger (issue 17: 10–40 µs of a
 * GetItem's CPU, more for a page of query results).
 */
export function serviceClient<T extends { middlewareStack: { remove(name: string): boolean } }>(client: T): T {
  client.middlewareStack.remove('loggerMiddleware');
  return captureClient(client);
}
