import type { Context } from 'aws-lambda';
import { logger } from './logger.ts';
import { metrics } from './metrics.ts';
import { tracer } from './tracer.ts';

/**
 * Wraps a Lambda entry: the Lambda context on every log line (function name, request id,
 * cold start), the cold-start metric, and a `## handler` subsegment with the cold-start
 * annotation when X-Ray tracing is on. The local server calls the same entries without a
 * context; then it only runs the handler.
 */
export function observedHandler<E, R>(handler: (event: E, context?: Context) => Promise<R>) {
  return async (event: E, context?: Context): Promise<R> => {
    if (!context) return handler(event, context);
    logger.addContext(context);
    metrics.captureColdStartMetric(context.functionName);
    const segment = tracer.isTracingEnabled() ? tracer.getSegment() : undefined;
    const subsegment = segment?.addNewSubsegment(`## ${process.env._HANDLER ?? 'handler'}`);
    if (subsegment) {
      tracer.setSegment(subsegment);
      tracer.annotateColdStart();
      tracer.addServiceNameAnnotation();
    }
    try {
      return await handler(event, context);
    } catch (error) {
      subsegment?.addError(error as Error);
      throw error;
    } finally {
      if (subsegment && segment) {
        subsegment.close();
        tracer.setSegment(segment);
      }
    }
  };
}
