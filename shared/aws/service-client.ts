import { captureClient } from '../observability/tracer.ts';
import { KeyObjectSha256 } from './sha256.ts';

interface SdkClient {
  middlewareStack: { remove(name: string): boolean };
}

/**
 * Every AWS SDK client of the service is made through here: traced (an X-Ray subsegment per
 * call in AWS, a no-op elsewhere), signing with KeyObjectSha256 (sha256.ts: a fifth less CPU
 * per signature on Node 24), and without the SDK's logger middleware. The service gives the
 * SDK no logger, yet that middleware still passes every call's input and output through the
 * command's sensitive-data filter for the default no-op logger (issue 17: 10–40 µs of a
 * GetItem's CPU, more for a page of query results).
 */
export function serviceClient<C extends SdkClient, Config extends object>(Client: new (config: Config) => C, clientConfig: Config): C {
  const client = new Client({ sha256: KeyObjectSha256, ...clientConfig });
  client.middlewareStack.remove('loggerMiddleware');
  return captureClient(client);
}
