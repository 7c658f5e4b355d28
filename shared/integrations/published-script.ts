import { siteScriptCacheEntity } from '../db/entities/site-script-cache.ts';
import { run as runWrite } from '../db/writes.ts';
import { nowMs } from '../clock.ts';
import { logger } from '../observability/logger.ts';
import { SCRIPT_CACHE_SECONDS, SCRIPT_FAILURE_CACHE_SECONDS, SCRIPT_MAX_BYTES, SCRIPT_WAIT_MS, type SiteScript } from '../reader/site-scripts.ts';
import { newEventId } from './events.ts';
import { scriptLimits } from './limits.ts';
import { runEvent } from './script-request.ts';

/*
 * Runs in the integration runtime (its container Lambda in AWS, which carries workerd and may
 * write the cache), never in the reader: the reader only names the script's URL.
 */
/** How long a cached script stays in the table (TTL): well past SCRIPT_CACHE_SECONDS, a refetch overwrites it first. */
const SCRIPT_CACHE_KEEP_SECONDS = 24 * 60 * 60;
const NO_SCRIPT = (name: string) => `/* ${name.replace(/\*\//g, '')}: no script */\n`;

/**
 * The JavaScript of `script` for the site: cached, or asked of the integration
 * (`fetch_published_script`) with at most SCRIPT_WAIT_MS of wall time. A failure, a non-2xx
 * answer or a missing handler gives a no-op script (a broken widget never breaks the page).
 */
export async function publishedScriptBody(siteId: string, script: SiteScript): Promise<{ body: string; fresh: boolean }> {
  const { integration, installation } = script;
  const key = { siteId, name: integration.name, version: integration.version };
  const cached = await siteScriptCacheEntity.get(key);
  const age = cached ? (nowMs() - cached.fetchedAt) / 1000 : Infinity;
  if (cached && age < (cached.failed ? SCRIPT_FAILURE_CACHE_SECONDS : SCRIPT_CACHE_SECONDS)) {
    return { body: cached.body ?? NO_SCRIPT(integration.name), fresh: !cached.failed };
  }
  const limits = scriptLimits();
  const run = await runEvent(integration, installation, {
    type: 'fetch_published_script', eventId: newEventId(), installationId: installation.id, siteId,
  }, undefined, { ...limits, wallMs: Math.min(limits.wallMs, SCRIPT_WAIT_MS), responseBytes: Math.min(limits.responseBytes, SCRIPT_MAX_BYTES) });
  const ok = !run.failure && run.response !== undefined && run.response.status >= 200 && run.response.status < 300;
  if (!ok) {
    logger.warn('published script failed', { integration: integration.name, siteId, status: run.response?.status, reason: run.failure?.reason });
  }
  const body = ok ? Buffer.from(run.response!.body).toString('utf8') : undefined;
  const fetchedAt = nowMs();
  await runWrite(siteScriptCacheEntity.put(key, { ...(body !== undefined ? { body } : {}), fetchedAt, failed: !ok, expiresAt: Math.ceil(fetchedAt / 1000) + SCRIPT_CACHE_KEEP_SECONDS }));
  return { body: body ?? NO_SCRIPT(integration.name), fresh: ok };
}
