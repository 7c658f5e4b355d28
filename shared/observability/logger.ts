import { LogFormatter, LogItem, Logger } from '@aws-lambda-powertools/logger';
import type { LogAttributes } from '@aws-lambda-powertools/logger/types';
import { logContext } from './context.ts';
import { SERVICE_NAME } from './service.ts';

/** Attribute names whose values are credentials: never written, whoever passes them. */
const SECRET_KEY = /authorization|cookie|token|secret|password|signature|saml/i;

function redact(value: unknown, depth = 0): unknown {
  if (depth > 4 || value === null || typeof value !== 'object' || value instanceof Error) return value;
  if (Array.isArray(value)) return value.map((item) => redact(item, depth + 1));
  return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, SECRET_KEY.test(key) ? '[redacted]' : redact(inner, depth + 1)]));
}

/**
 * Powertools' standard JSON keys, plus the request's context (request id, correlation id,
 * organization, space) on every line, and secrets redacted by attribute name.
 */
class ServiceLogFormatter extends LogFormatter {
  formatAttributes(attributes: Parameters<LogFormatter['formatAttributes']>[0], additional: LogAttributes): LogItem {
    const lambda = attributes.lambdaContext;
    return new LogItem({
      attributes: {
        level: attributes.logLevel,
        message: attributes.message,
        timestamp: this.formatTimestamp(attributes.timestamp),
        service: attributes.serviceName,
        cold_start: lambda?.coldStart,
        function_name: lambda?.functionName,
        function_request_id: lambda?.awsRequestId,
        xray_trace_id: attributes.xRayTraceId,
        ...logContext(),
      },
    }).addAttributes(redact(additional) as LogAttributes);
  }
}

/**
 * The one logger of every function and of the local server: JSON lines on stdout. Level
 * from POWERTOOLS_LOG_LEVEL (INFO by default; the test run sets ERROR).
 */
export const logger = new Logger({
  serviceName: SERVICE_NAME,
  logLevel: (process.env.POWERTOOLS_LOG_LEVEL as 'INFO' | undefined) ?? 'INFO',
  logFormatter: new ServiceLogFormatter(),
});
