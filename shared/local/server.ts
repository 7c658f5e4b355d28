import { METHOD_NAME_ALL } from 'hono/router';
import { SmartRouter } from 'hono/router/smart-router';
import { RegExpRouter } from 'hono/router/reg-exp-router';
import { TrieRouter } from 'hono/router/trie-router';
import { getPath } from 'hono/utils/url';
import { operations, toHonoPath } from '../../functions/catalogue.ts';
import { SERVICE_DESCRIPTION_GROUP, SERVICE_DESCRIPTION_ROUTES } from '../http/service-description.ts';
import { errorBody } from '../http/errors.ts';
import { noRouteError } from '../http/path-params.ts';
import { HEALTH_GROUP, HEALTH_ROUTES } from '../http/health.ts';
import { groupApps } from './groups.ts';
import { app as reader } from '../../functions/reader/app.ts';
import { serviceProviderApp } from '../../functions/sso/service-provider.ts';
import { app as integrationRuntime } from '../../functions/integration-runtime/app.ts';

/** What serves a request: a group's app, the reader, the runtime (each a Lambda in AWS). */
type Target = (request: Request, env?: unknown) => Response | Promise<Response>;

const json = (body: unknown, status: number, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });

/**
 * One HTTP entry for local runs and tests that routes each operation to its group's app,
 * as API Gateway routes it to the group's Lambda. A router alone (Hono's, as `new Hono()`
 * picks it), not an app of its own: API Gateway adds no middleware either, and a second
 * Hono context per request cost a measurable share of a warm GET (issue 17).
 */
export function createLocalApp(): { fetch: Target } {
  const router = new SmartRouter<Target>({ routers: [new RegExpRouter(), new TrieRouter()] });
  const route = (methods: string | string[], path: string, target: Target) => {
    for (const method of [methods].flat()) router.add(method, path, target);
  };
  // env (the Node socket) goes along: rate limits count by the client's address.
  for (const op of operations) route(op.method, toHonoPath(`/v1${op.path}`), groupApps[op.group].fetch);
  // The service's own description (/v1/openapi.json, /v1/docs), answered by one group's app as in AWS.
  for (const r of SERVICE_DESCRIPTION_ROUTES) route(r.method, `/v1${r.path}`, groupApps[SERVICE_DESCRIPTION_GROUP].fetch);
  for (const r of HEALTH_ROUTES) route(r.method, `/v1${r.path}`, groupApps[HEALTH_GROUP].fetch);
  // Integrations' public endpoints (any method, no token): the integration runtime's app, as in AWS.
  route(METHOD_NAME_ALL, '/v1/integrations/:integrationName/public', integrationRuntime.fetch);
  route(METHOD_NAME_ALL, '/v1/integrations/:integrationName/public/*', integrationRuntime.fetch);
  // The reader site (its own Lambda in AWS, routes GET /s/{proxy+}): published sites as HTML.
  // Integrations' scripts on published sites: the runtime's Lambda in AWS (a more specific route).
  route('GET', '/s/:siteId/~integrations/:name/script.js', integrationRuntime.fetch);
  // Integration blocks' renders, asked by the reader: the runtime's Lambda in AWS too.
  route('POST', '/s/:siteId/~integrations/:name/render', integrationRuntime.fetch);
  route('GET', '/s/*', reader.fetch);
  // SAML service-provider endpoints (the sso group's Lambda in AWS, routes under /sso/saml/).
  route(['GET', 'POST'], '/sso/saml/*', serviceProviderApp.fetch);
  route('GET', '/health', () => json({ status: 'ok' }, 200));
  return {
    async fetch(request, env) {
      // HEAD is routed as GET (the target app answers it without a body), as Hono does.
      const method = request.method === 'HEAD' ? 'GET' : request.method;
      const path = getPath(request);
      // The first route added that matches wins, as with Hono's handlers.
      const [matches] = router.match(method, path);
      const target = matches[0]?.[0];
      if (!target) {
        // As the catch-all route's app answers in AWS: 405 (with Allow) for a path served with other methods, else 404.
        const refusal = noRouteError(operations, request.method, path);
        return json(errorBody(refusal.status, refusal.message), refusal.status, refusal.headers);
      }
      try {
        return await target(request, env);
      } catch {
        return json(errorBody(500, 'Internal server error'), 500);
      }
    },
  };
}
