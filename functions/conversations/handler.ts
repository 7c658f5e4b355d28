import { handle } from 'hono/aws-lambda';
import { app } from './app.ts';

/** Lambda entry of the `conversations` group (API Gateway HTTP API, payload v2). */
export const handler = handle(app);
