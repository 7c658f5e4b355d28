import { randomUUID } from 'node:crypto';
import type { MiddlewareHandler } from 'hono';
import { roundTripSteps, roundTrips } from '../db/trace.ts';
import { runWithLogContext } from '../observability/context.ts';
import { logger } from '../observability/logger.ts';
import { recordRequest } from '../observability/metrics.ts';
import { setAnswerHeader } from './answer-headers.ts';

/** A caller's x-request-id is reused as correlation id only if it is short and plain (it is echoed and logged). */
const SANE_REQUEST_ID = /^[A-Za-z0-9._:@\/+=-]{1,128}$/;

/** x-db-round-trips and x-db-steps are debugging aids (tests, benchmarks): they say how the data is laid out, so they are off unless asked for. */
const roundTripsHeader = () => process.env.DEBUG_ROUND_TRIPS === '1';

/** API Gateway's request id, from the Lambda event Hono's adapter puts in c.env. */
function apiGatewayRequestId(env: unknown): string | undefined {
  const id = (env as { event?: { requestContext?: { requestId?: unknown } } } | undefined)?.event?.requestContext?.requestId;
  return typeof id === 'string' && id ? id : undefined;
}

export interface ObserveOptions {
  /** Metric and log group when the request names no declared operation (reader, SAML, unknown paths). */
  group: string;
  /** The declared operation's group and id, once routing found one (c.get('operation')). */
  operation?: (c: Parameters<MiddlewareHandler>[0]) => { group: string; operationId: string } | undefined;
}

/**
 * The first middleware of every app: the request's log context (request id, correlation
 * id), DynamoDB round-trip counting, `x-request-id` on the answer, one access line and
 * the request metrics. Never logs headers, query strings or bodies: they carry tokens.
 */
export function observeRequests(options: ObserveOptions): MiddlewareHandler {
  return async (c, next) => {
    const started = performance.now();
    const requestId = apiGatewayRequestId(c.env) ?? randomUUID();
    const sent = c.req.header('x-request-id');
    const correlationId = sent && SANE_REQUEST_ID.test(sent) ? sent : requestId;
    await runWithLogContext({ request_id: requestId, correlation_id: correlationId }, async () => {
      await next();
      const trips = roundTrips();
      setAnswerHeader(c, 'x-request-id', correlationId);
      if (roundTripsHeader()) {
        setAnswerHeader(c, 'x-db-round-trips', String(trips));
        setAnswerHeader(c, 'x-db-steps', String(roundTripSteps()));
      }
      const operation = options.operation?.(c);
      const group = operation?.group ?? options.group;
      const durationMs = Math.round((performance.now() - started) * 10) / 10;
      logger.info('request', {
        method: c.req.method,
        path: c.req.path,
        route: operation?.operationId ?? c.req.routePath,
        group,
        status: c.res.status,
        durationMs,
        dbRoundTrips: trips,
      });
      recordRequest(group, c.res.status, durationMs);
    }, { countRoundTrips: true });
  };
}
