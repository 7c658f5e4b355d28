import { handle } from 'hono/aws-lambda';
import { app } from './app.ts';
import { observedHandler } from '../../shared/observability/lambda.ts';

/** Lambda entry of the `change-requests` group (API Gateway HTTP API, payload v2). */
export const handler = observedHandler(handle(app));
