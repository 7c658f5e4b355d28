import { Hono, type Context } from 'hono';
import * as v from 'valibot';
import { publicRoutes } from '../../shared/http/route.ts';
import { errorBody } from '../../shared/http/errors.ts';
import { integrationEndpointRateLimit } from '../../shared/http/rate-limit.ts';
import type { AppEnv } from '../../shared/http/env.ts';
import { installationEntity, integrationEntity } from '../../shared/db/entities/integration.ts';
import { newEventId } from '../../shared/integrations/events.ts';
import { runEvent } from '../../shared/integrations/script-request.ts';
import { logger } from '../../shared/observability/logger.ts';
import { id } from '../../shared/http/schemas.ts';
import { integrationParams } from './schemas.ts';

/**
 * Public endpoints (`urls.publicEndpoint` of an integration and of an installation): any
 * request, without a token, is handed to the script's `fetch` handler as a `fetch` event
 * (how chat commands and webhooks of other services reach an integration); the script's
 * answer is the answer. The script authenticates its callers itself (signing secrets).
 */
export const PUBLIC_ENDPOINT_MAX_BODY_BYTES = 1024 * 1024;

const installationPrefix = /^\/installations\/([^/]+)/;

async function forward(c: Context<AppEnv>): Promise<Response> {
  const name = c.req.param('integrationName') ?? '';
  if (!v.is(integrationParams, { integrationName: name })) return c.json(errorBody(400, 'integrationName: must match ^[a-zA-Z0-9-_.]+$'), 400);
  const rest = c.req.path.slice(`/v1/integrations/${name}/public`.length);
  const installationId = installationPrefix.exec(rest)?.[1];
  if (installationId !== undefined && !v.is(id, installationId)) return c.json(errorBody(400, 'installationId: is not a valid id'), 400);
  const declared = Number(c.req.header('content-length') ?? 0);
  if (declared > PUBLIC_ENDPOINT_MAX_BODY_BYTES) return c.json(errorBody(413, `body: is larger than ${PUBLIC_ENDPOINT_MAX_BODY_BYTES} bytes`), 413);
  const [integration, installation] = await Promise.all([
    integrationEntity.get({ name }),
    installationId ? installationEntity.get({ name, installationId }) : Promise.resolve(undefined),
  ]);
  if (!integration?.scriptBlob) return c.json(errorBody(404, `No integration with a script found with name ${name}`), 404);
  if (installationId && !installation) return c.json(errorBody(404, `No installation found with id ${installationId}`), 404);
  const body = c.req.method === 'GET' || c.req.method === 'HEAD' ? undefined : new Uint8Array(await c.req.arrayBuffer());
  if (body && body.byteLength > PUBLIC_ENDPOINT_MAX_BODY_BYTES) return c.json(errorBody(413, `body: is larger than ${PUBLIC_ENDPOINT_MAX_BODY_BYTES} bytes`), 413);
  const headers: Record<string, string> = {};
  c.req.raw.headers.forEach((value, key) => {
    if (key !== 'authorization' && key !== 'cookie') headers[key] = value;
  });
  const run = await runEvent({ ...integration, scriptBlob: integration.scriptBlob }, installation, {
    type: 'fetch', eventId: newEventId(), ...(installation ? { installationId: installation.id } : {}),
    request: { url: c.req.url, method: c.req.method, headers },
  }, body);
  if (run.failure || !run.response) {
    logger.warn('integration public endpoint failed', { integration: name, reason: run.failure?.reason });
    return c.json(errorBody(502, `The integration failed: ${run.failure?.message ?? 'no answer'}`), 502);
  }
  const { status, headers: answered, body: answer } = run.response;
  return new Response(status === 204 || status === 304 ? null : new Uint8Array(answer), { status, headers: isolated(answered) });
}

/**
 * The public endpoints share the API's origin (and, locally, the published sites'). A script's
 * answer must not act as that origin: cookies it sets are dropped, and its pages are sandboxed
 * (an opaque origin: no access to the origin's storage, such as the API reference's saved
 * token, nor its cookies), while their scripts, forms and popups still work, as OAuth
 * callback pages need. A policy of the script's own is kept beside this one (both apply).
 */
export const PUBLIC_ENDPOINT_SANDBOX = 'sandbox allow-scripts allow-forms allow-popups allow-popups-to-escape-sandbox allow-downloads allow-modals';

function isolated(headers: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (name === 'set-cookie' || name === 'set-cookie2') continue;
    out[name] = value;
  }
  const own = out['content-security-policy'];
  out['content-security-policy'] = own ? `${own}, ${PUBLIC_ENDPOINT_SANDBOX}` : PUBLIC_ENDPOINT_SANDBOX;
  out['x-content-type-options'] = 'nosniff';
  return out;
}

// Counted per client address and integration before anything is read (READER_RATE_LIMIT_PER_MINUTE).
export const publicEndpoint = publicRoutes(new Hono<AppEnv>()
  .all('/integrations/:integrationName/public', integrationEndpointRateLimit, forward)
  .all('/integrations/:integrationName/public/*', integrationEndpointRateLimit, forward));
