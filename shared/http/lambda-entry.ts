import type { Hono } from 'hono';
import { handle } from 'hono/aws-lambda';
import type { Context } from 'aws-lambda';
import { observedHandler } from '../observability/lambda.ts';
import { storingOversizedAnswers, type GatewayResult } from './oversized-answers.ts';

type EntryOptions = Partial<NonNullable<Parameters<typeof handle>[1]>> & { answerLimitBytes?: number };
type GatewayEntry = (event: any, context?: Context) => Promise<GatewayResult>;

/**
 * An HTTP app behind API Gateway (HTTP API, payload v2): hono's adapter, with answers too
 * large for Lambda stored and redirected to (oversized-answers.ts).
 */
export function gatewayEntry(app: Hono<any, any, any>, { answerLimitBytes, ...options }: EntryOptions = {}): GatewayEntry {
  const gateway = handle(app, options as never) as unknown as GatewayEntry;
  return storingOversizedAnswers(gateway, { limitBytes: answerLimitBytes });
}

/** The Lambda entry of an HTTP app: gatewayEntry with the Lambda context on every log line (observedHandler). */
export function httpEntry(app: Hono<any, any, any>, options: EntryOptions = {}): GatewayEntry {
  return observedHandler(gatewayEntry(app, options));
}
