import { Hono } from 'hono';
import { operations, toHonoPath } from '../../functions/catalogue.ts';
import { SERVICE_DESCRIPTION_GROUP, SERVICE_DESCRIPTION_ROUTES } from '../http/service-description.ts';
import { errorBody } from '../http/errors.ts';
import { HEALTH_GROUP, HEALTH_ROUTES } from '../http/health.ts';
import { groupApps } from './groups.ts';
import { app as reader } from '../../functions/reader/app.ts';
import { serviceProviderApp } from '../../functions/sso/service-provider.ts';
import { app as integrationRuntime } from '../../functions/integration-runtime/app.ts';

/**
 * One HTTP app for local runs and tests that routes each operation to its group's app,
 * as API Gateway routes it to the group's Lambda.
 */
export function createLocalApp() {
  const root = new Hono();
  for (const op of operations) {
    const app = groupApps[op.group];
    // c.env (the Node socket) goes along: rate limits count by the client's address.
    root.on(op.method, toHonoPath(`/v1${op.path}`), (c) => app.fetch(c.req.raw, c.env));
  }
  // The service's own description (/v1/openapi.json, /v1/docs), answered by one group's app as in AWS.
  for (const route of SERVICE_DESCRIPTION_ROUTES) {
    root.on(route.method, `/v1${route.path}`, (c) => groupApps[SERVICE_DESCRIPTION_GROUP].fetch(c.req.raw, c.env));
  }
  for (const route of HEALTH_ROUTES) {
    root.on(route.method, `/v1${route.path}`, (c) => groupApps[HEALTH_GROUP].fetch(c.req.raw, c.env));
  }
  // Integrations' public endpoints (any method, no token): the integration runtime's app, as in AWS.
  root.all('/v1/integrations/:integrationName/public', (c) => integrationRuntime.fetch(c.req.raw, c.env));
  root.all('/v1/integrations/:integrationName/public/*', (c) => integrationRuntime.fetch(c.req.raw, c.env));
  // The reader site (its own Lambda in AWS, routes GET /s/{proxy+}): published sites as HTML.
  // Integrations' scripts on published sites: the runtime's Lambda in AWS (a more specific route).
  root.get('/s/:siteId/~integrations/:name/script.js', (c) => integrationRuntime.fetch(c.req.raw, c.env));
  root.get('/s/*', (c) => reader.fetch(c.req.raw, c.env));
  // SAML service-provider endpoints (the sso group's Lambda in AWS, routes under /sso/saml/).
  root.on(['GET', 'POST'], '/sso/saml/*', (c) => serviceProviderApp.fetch(c.req.raw, c.env));
  root.get('/health', (c) => c.json({ status: 'ok' }));
  root.notFound((c) => c.json(errorBody(404, `No route for ${c.req.method} ${c.req.path}`), 404));
  root.onError((_error, c) => c.json(errorBody(500, 'Internal server error'), 500));
  return root;
}
