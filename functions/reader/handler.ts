import { handle } from 'hono/aws-lambda';
import { app } from './app.ts';
import { observedHandler } from '../../shared/observability/lambda.ts';

/** Text types the reader answers (markdown included) go out as text, everything else base64. */
export const isContentTypeBinary = (contentType: string) =>
  !/^(text\/|application\/(json|xml|javascript)|image\/svg\+xml)/i.test(contentType);

/** Lambda entry of the reader site (API Gateway HTTP API, payload v2). */
export const handler = observedHandler(handle(app, { isContentTypeBinary }));
