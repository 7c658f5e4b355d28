import { Hono } from 'hono';
import * as v from 'valibot';
import type { AppEnv } from '../../shared/http/env.ts';
import { errorBody } from '../../shared/http/errors.ts';
import { blockIntegration } from '../../shared/integrations/block-installation.ts';
import { renderIntegrationBlock } from '../../shared/integrations/block-render.ts';
import { renderSigningSecret } from '../../shared/reader/integration-blocks.ts';
import { Webhook } from 'standardwebhooks';
import { BLOCK_RENDER_PATH } from '../integrations/public-paths.ts';

const RenderRequest = v.object({
  orgId: v.string(),
  spaceId: v.string(),
  block: v.pipe(v.string(), v.minLength(1), v.maxLength(200)),
  props: v.record(v.string(), v.unknown()),
});
/** A render request's body at most (a block's props as stored). */
const MAX_REQUEST_BYTES = 256 * 1024;

/**
 * An integration block's render (shared/reader/integration-blocks.ts), asked by the reader
 * only: the request is signed (Standard Webhooks, with a key derived from the service secret),
 * so no visitor can make an integration run with props of their choosing. Served by the
 * runtime, which runs the integration (workerd) and writes the render cache.
 */
export const blockRenderRoutes = new Hono<AppEnv>().post(BLOCK_RENDER_PATH.replace('{siteId}', ':siteId').replace('{integrationName}', ':name'), async (c) => {
  const raw = await c.req.text();
  try {
    if (raw.length > MAX_REQUEST_BYTES) throw new Error('too large');
    new Webhook(await renderSigningSecret()).verify(raw, {
      'webhook-id': c.req.header('webhook-id') ?? '', 'webhook-timestamp': c.req.header('webhook-timestamp') ?? '', 'webhook-signature': c.req.header('webhook-signature') ?? '',
    });
  } catch {
    return c.json(errorBody(401, 'Render requests come from the reader only (webhook-signature)'), 401);
  }
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    return c.json(errorBody(400, 'Invalid render request: the body is not JSON'), 400);
  }
  const parsed = v.safeParse(RenderRequest, json);
  if (!parsed.success) return c.json(errorBody(400, `Invalid render request: ${v.getDotPath(parsed.issues[0]!) ?? 'body'}`), 400);
  const target = await blockIntegration(parsed.output.orgId, c.req.param('name') ?? '');
  if (!target) return c.json(errorBody(404, 'The integration is not installed on this space'), 404);
  const body = await renderIntegrationBlock(target, parsed.output);
  if (body === undefined) return c.json(errorBody(502, 'The integration did not render the block'), 502);
  return c.body(body, 200, { 'Content-Type': 'application/json', 'Cache-Control': 'no-store' });
});
