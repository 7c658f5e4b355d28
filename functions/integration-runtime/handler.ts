import type { APIGatewayProxyEventV2, SQSEvent } from 'aws-lambda';
import { handle } from 'hono/aws-lambda';
import { createGroupApp } from '../../shared/http/group-app.ts';
import { publicEndpoint } from '../integrations/public-endpoint.ts';
import { handler as deliverEvents } from '../workers/integration-events/handler.ts';

/**
 * The integration runtime's Lambda (a container image carrying workerd:
 * infra/constructs/integration-runtime.ts): it consumes the integration-events queue and
 * answers the integrations' public endpoints, the two places where published scripts run.
 */
const publicApp = createGroupApp(publicEndpoint);
const serveHttp = handle(publicApp);

export async function handler(event: SQSEvent | APIGatewayProxyEventV2, context: unknown) {
  if ('Records' in event) return deliverEvents(event, context as never);
  return serveHttp(event, context as never);
}
