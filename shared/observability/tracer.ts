import './xray-mode.ts';
import { Tracer } from '@aws-lambda-powertools/tracer';
import { SERVICE_NAME } from './service.ts';

/**
 * X-Ray through Powertools: active only inside Lambda with tracing on (the stack turns it
 * on for every function); a no-op in the local server and tests.
 */
export const tracer = new Tracer({ serviceName: SERVICE_NAME });

/** Every AWS SDK call of this client becomes a subsegment of the invocation's trace. */
export function captureClient<T>(client: T): T {
  return tracer.captureAWSv3Client(client);
}
