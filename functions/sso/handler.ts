import type { LambdaContext, LambdaEvent } from 'hono/aws-lambda';
import { gatewayEntry } from '../../shared/http/lambda-entry.ts';
import { app } from './app.ts';
import { serviceProviderApp } from './service-provider.ts';
import { observedHandler } from '../../shared/observability/lambda.ts';

const api = gatewayEntry(app);
const serviceProvider = gatewayEntry(serviceProviderApp);

/**
 * Lambda entry of the `sso` group (API Gateway HTTP API, payload v2): the /v1 operations,
 * and the SAML service-provider endpoints under /sso/saml/ (no bearer token there).
 */
export const handler = observedHandler((event: LambdaEvent & { rawPath: string }, context?: LambdaContext) =>
  (event.rawPath.startsWith('/sso/saml/') ? serviceProvider : api)(event, context as never));
