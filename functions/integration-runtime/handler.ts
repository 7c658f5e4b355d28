import type { APIGatewayProxyEventV2, SQSEvent } from 'aws-lambda';
import { handle } from 'hono/aws-lambda';
import { app } from './app.ts';
import { handler as deliverEvents } from '../workers/integration-events/handler.ts';

/**
 * The integration runtime's Lambda (a container image carrying workerd:
 * infra/constructs/integration-runtime.ts): it consumes the integration-events queue and
 * answers the integrations' public endpoints, the two places where published scripts run.
 */
const serveHttp = handle(app);

export async function handler(event: SQSEvent | APIGatewayProxyEventV2, context: unknown) {
  if ('Records' in event) return deliverEvents(event, context as never);
  return serveHttp(event as never, context as never);
}
