import { blockRenderCacheEntity } from '../db/entities/block-render-cache.ts';
import { run as runWrite } from '../db/writes.ts';
import { nowMs } from '../clock.ts';
import { logger } from '../observability/logger.ts';
import {
  BLOCK_RENDER_CACHE_SECONDS, BLOCK_RENDER_FAILURE_SECONDS, BLOCK_RENDER_MAX_BYTES, BLOCK_RENDER_MAX_SECONDS, BLOCK_RENDER_MIN_SECONDS,
  BLOCK_RENDER_STALE_KEEP_SECONDS, BLOCK_RENDER_WAIT_MS, renderHash, type BlockRequest,
} from '../reader/integration-blocks.ts';
import type { BlockIntegration } from './block-installation.ts';
import { newEventId } from './events.ts';
import { scriptLimits } from './limits.ts';
import { runEvent } from './script-request.ts';

/*
 * Runs in the integration runtime (it carries workerd and may write the cache), asked by the
 * reader (shared/reader/integration-blocks.ts).
 */

/** `max-age` of the integration's Cache-Control (createComponent's setCache), bounded; the default without one. */
function freshSeconds(cacheControl: string | undefined): number {
  const maxAge = /(?:^|,)\s*max-age=(\d+)/i.exec(cacheControl ?? '')?.[1];
  if (maxAge === undefined) return BLOCK_RENDER_CACHE_SECONDS;
  return Math.min(Math.max(Number(maxAge), BLOCK_RENDER_MIN_SECONDS), BLOCK_RENDER_MAX_SECONDS);
}

/**
 * Sends the integration `ui_render` for a document block, as GitBook does for published
 * content (componentId: the block's id in the integration, its props, a `document` context
 * that is not editable), within BLOCK_RENDER_WAIT_MS and BLOCK_RENDER_MAX_BYTES, and caches
 * the answer (or the failure) for the reader. The answer is returned as the integration sent
 * it: the reader validates it.
 */
export async function renderIntegrationBlock({ integration, installation }: BlockIntegration, request: BlockRequest): Promise<string | undefined> {
  const limits = scriptLimits();
  const { spaceId, block, props } = request;
  const run = await runEvent(integration, installation, {
    type: 'ui_render', eventId: newEventId(), installationId: installation.id, spaceId,
    componentId: block, props, context: { type: 'document', spaceId, editable: false, theme: 'light' },
  }, undefined, { ...limits, wallMs: Math.min(limits.wallMs, BLOCK_RENDER_WAIT_MS), responseBytes: Math.min(limits.responseBytes, BLOCK_RENDER_MAX_BYTES) });
  const ok = !run.failure && run.response !== undefined && run.response.status >= 200 && run.response.status < 300;
  if (!ok) logger.warn('integration block render failed', { integration: integration.name, status: run.response?.status, reason: run.failure?.reason });
  const body = ok ? Buffer.from(run.response!.body).toString('utf8') : undefined;
  const fetchedAt = nowMs();
  const seconds = ok ? freshSeconds(run.response!.headers['cache-control']) : BLOCK_RENDER_FAILURE_SECONDS;
  const freshUntil = fetchedAt + seconds * 1000;
  await runWrite(blockRenderCacheEntity.put(
    { name: integration.name, version: integration.version, hash: renderHash(integration, spaceId, block, props) },
    // A stale render is still shown while the integration fails: kept a week past its freshness.
    { ...(body !== undefined ? { body } : {}), fetchedAt, freshUntil, failed: !ok, expiresAt: Math.ceil(freshUntil / 1000) + BLOCK_RENDER_STALE_KEEP_SECONDS },
  ));
  return body;
}
