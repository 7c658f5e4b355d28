import { createHash } from 'node:crypto';
import type { ElementContent } from 'hast';
import { h } from 'hastscript';
import { config } from '../config.ts';
import { nowMs } from '../clock.ts';
import { randomId } from '../ids.ts';
import { derivedKey } from '../secrets/keys.ts';
import { blockRenderCacheEntity } from '../db/entities/block-render-cache.ts';
import type { IntegrationItem } from '../db/entities/integration.ts';
import { blockIntegration } from '../integrations/block-installation.ts';
import { webhookHeaders } from '../integrations/signature.ts';
import { logger } from '../observability/logger.ts';
import { contentKitHast, parseRenderOutput, type ContentKitBlock, type ContentKitHelpers } from './contentkit.ts';
import { integrationSources } from './security-headers.ts';
import { policyText } from './site-scripts.ts';

/**
 * Integration blocks (`integration` nodes: `{integration, block, props}`) on published pages.
 * As on GitBook, the integration draws its block: the reader asks the integration runtime
 * (which runs workerd; the reader does not) to send the installed integration a `ui_render`
 * event, and shows the ContentKit it answers (shared/reader/contentkit.ts). The runtime
 * caches each answer per integration version, space, block and props
 * (shared/integrations/block-render.ts); the reader reads that cache and only calls the
 * runtime on a miss, every block of the page at once within BLOCK_RENDER_WAIT_MS. A block
 * whose integration is not installed on the space, fails, is too slow, too large or no
 * ContentKit shows a quiet fallback: the integration's name. The call is signed with a key
 * derived from the service secret: only the reader may ask for a render.
 */

/** The longest a page waits for its integration blocks (the runtime's wall limit of such a run too). */
export const BLOCK_RENDER_WAIT_MS = 3_000;
/** Size of one answer at most (it is cached in one table item). */
export const BLOCK_RENDER_MAX_BYTES = 128 * 1024;
/** How long a render is reused without `Cache-Control: max-age` from the integration, and the bounds of one. */
export const BLOCK_RENDER_CACHE_SECONDS = 60 * 60;
export const BLOCK_RENDER_MIN_SECONDS = 60;
export const BLOCK_RENDER_MAX_SECONDS = 24 * 60 * 60;
/** How long a render stays in the table after its freshness (shown while the integration fails; then removed by TTL). */
export const BLOCK_RENDER_STALE_KEEP_SECONDS = 7 * 24 * 60 * 60;
/** How long a failed render is remembered (the fallback shows meanwhile). */
export const BLOCK_RENDER_FAILURE_SECONDS = 60;
/** Integration blocks rendered per page at most; the others show the fallback. */
export const MAX_INTEGRATION_BLOCKS = 20;
/** Where the runtime answers a render (functions/integration-runtime/block-render.ts). */
export const renderPath = (siteId: string, name: string) => `/s/${siteId}/~integrations/${encodeURIComponent(name)}/render`;

export interface BlockRequest {
  orgId: string;
  spaceId: string;
  block: string;
  props: Record<string, unknown>;
}

/** The cache entry's hash: the publication (a name published again is another integration), space, block, props. */
export const renderHash = (integration: Pick<IntegrationItem, 'createdAt'>, spaceId: string, block: string, props: unknown) =>
  createHash('sha256').update(JSON.stringify([integration.createdAt, spaceId, block, props ?? {}])).digest('base64url');

/** The Standard Webhooks secret of reader-to-runtime render calls. */
export async function renderSigningSecret(): Promise<string> {
  return (await derivedKey('integration-block-render')).toString('base64');
}

type Data = { integration?: unknown; block?: unknown; props?: unknown };
/** What identifies a block within a page (a page may show the same block twice). */
export const integrationBlockKey = (data: Data) => JSON.stringify([data.integration, data.block, data.props ?? {}]);
const keyOf = integrationBlockKey;

interface BlockResult {
  block?: ContentKitBlock;
  /** The integration's frame-src sources (webframes show as frames only when they allow the URL). */
  frameSources: string[];
}

export interface IntegrationBlocks {
  results: Map<string, BlockResult>;
  /** Part of the page's ETag: what each block shows (a render's hash, or the fallback). */
  etagKey: string;
}

type Walked = { type?: string; data?: Data; nodes?: Walked[]; fragments?: Walked[] };

/** The integration blocks of a document (its fragments included), at most MAX_INTEGRATION_BLOCKS distinct ones. */
export function collectIntegrationBlocks(nodes: Walked[] | undefined, out: Map<string, Data>): void {
  for (const node of nodes ?? []) {
    if (node.type === 'integration' && node.data && out.size < MAX_INTEGRATION_BLOCKS) out.set(keyOf(node.data), node.data);
    collectIntegrationBlocks(node.nodes, out);
    for (const fragment of node.fragments ?? []) collectIntegrationBlocks(fragment.nodes, out);
  }
}

/**
 * Renders (or reads from the cache) every integration block of a page, never failing: a failure
 * is the fallback. `document` has its reusable contents inlined (shared/reader/inline-includes.ts):
 * their blocks count in the same limit and deadline, and render in the page's space, which owns
 * them (docs/decisions.md).
 */
export async function loadIntegrationBlocks(document: { nodes: unknown[] }, page: { siteId: string; spaceId: string; orgId: string }): Promise<IntegrationBlocks> {
  const blocks = new Map<string, Data>();
  collectIntegrationBlocks(document.nodes as Walked[], blocks);
  const results = new Map<string, BlockResult>();
  if (blocks.size === 0) return { results, etagKey: '' };
  const deadline = AbortSignal.timeout(BLOCK_RENDER_WAIT_MS);
  const parts = await Promise.all([...blocks].map(async ([key, data]) => {
    try {
      const { result, tag } = await renderOne(data, page, deadline);
      if (result) results.set(key, result);
      return `${key} ${tag}`;
    } catch (error) {
      logger.warn('integration block not rendered', { integration: String(data.integration), error: error as Error });
      return `${key} fallback`;
    }
  }));
  return { results, etagKey: parts.join('\n') };
}

async function renderOne(data: Data, page: { siteId: string; spaceId: string; orgId: string }, deadline: AbortSignal): Promise<{ result?: BlockResult; tag: string }> {
  const { integration: name, block } = data;
  const props = propsOf(data);
  if (typeof name !== 'string' || typeof block !== 'string') return { tag: 'fallback' };
  const lookup = await cacheLookup(name, block, props, page);
  if (!lookup) return { tag: 'not-installed' };
  const { integration, cached } = lookup;
  let body: string | undefined;
  if (cached && nowMs() < cached.freshUntil) body = cached.body;
  else body = await askRuntime(page.siteId, name, { orgId: page.orgId, spaceId: page.spaceId, block, props }, deadline) ?? cached?.body;
  const parsed = body === undefined ? undefined : parseRenderOutput(body);
  if (!parsed) return { tag: `${integration.version} fallback` };
  const frameSources = integrationSources([policyText(integration.contentSecurityPolicy) ?? '']).get('frame-src') ?? [];
  return { result: { block: parsed, frameSources }, tag: renderTag(integration, body!) };
}

/** What a render shows, for ETags: the integration's version and the answer's hash. */
const renderTag = (integration: Pick<IntegrationItem, 'version'>, body: string) => `${integration.version} ${createHash('sha256').update(body).digest('base64url')}`;

const propsOf = (data: Data) => (data.props && typeof data.props === 'object' && !Array.isArray(data.props) ? data.props as Record<string, unknown> : {});

/** The block's integration as installed for the space, and its cache entry (if any). */
async function cacheLookup(name: string, block: string, props: Record<string, unknown>, space: { orgId: string; spaceId: string }) {
  const target = await blockIntegration(space.orgId, name);
  if (!target) return undefined;
  const { integration } = target;
  const cached = await blockRenderCacheEntity.get({ name, version: integration.version, hash: renderHash(integration, space.spaceId, block, props) });
  return { integration, cached };
}

/**
 * The cached render of a block (fresh or stale, as the page shows it while its integration
 * fails), never asking the runtime: for exports (shared/reader/integration-text.ts).
 */
export async function cachedBlockRender(data: Data, space: { orgId: string; spaceId: string }): Promise<{ block: ContentKitBlock; tag: string } | undefined> {
  const { integration: name, block } = data;
  if (typeof name !== 'string' || typeof block !== 'string') return undefined;
  const lookup = await cacheLookup(name, block, propsOf(data), space);
  const body = lookup?.cached?.body;
  const parsed = body === undefined ? undefined : parseRenderOutput(body);
  return parsed ? { block: parsed, tag: renderTag(lookup!.integration, body!) } : undefined;
}

/** The runtime's answer, or undefined (refused, failed, late or too large). */
async function askRuntime(siteId: string, name: string, request: BlockRequest, deadline: AbortSignal): Promise<string | undefined> {
  const body = JSON.stringify(request);
  const headers = { 'content-type': 'application/json', ...webhookHeaders(await renderSigningSecret(), `render_${randomId(16)}`, body, new Date()) };
  try {
    const res = await fetch(`${config.apiUrl}${renderPath(siteId, name)}`, { method: 'POST', headers, body, signal: deadline, redirect: 'error' });
    if (res.status !== 200 || !res.body) {
      await res.body?.cancel();
      return undefined;
    }
    const chunks: Uint8Array[] = [];
    let size = 0;
    for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
      size += chunk.byteLength;
      if (size > BLOCK_RENDER_MAX_BYTES) return undefined;
      chunks.push(chunk);
    }
    return Buffer.concat(chunks).toString('utf8');
  } catch {
    return undefined; // the deadline, or the runtime unreachable
  }
}

/**
 * Whether a frame-src source list allows a URL: `https:`, or a host source (scheme, `*.`
 * wildcard, port and path as CSP matches them). 'self' never: the reader's own pages are
 * not framed inside its pages.
 */
export function frameAllowed(sources: string[], url: URL): boolean {
  // Never the service's own origin (its API, integrations' public endpoints): a same-origin frame with scripts is no sandbox.
  if (url.protocol !== 'https:' || url.origin === new URL(config.apiUrl).origin) return false;
  return sources.some((source) => {
    if (source === 'https:') return true;
    const m = /^(?:(https?):\/\/)?(\*\.)?([^/:]+)(?::(\d+|\*))?(\/.*)?$/i.exec(source);
    if (!m || source.startsWith("'")) return false;
    const [, scheme, wildcard, host, port, path] = m;
    if (scheme && scheme.toLowerCase() !== 'https') return false;
    const hostname = url.hostname.toLowerCase();
    const want = host!.toLowerCase();
    if (wildcard ? !hostname.endsWith(`.${want}`) : hostname !== want) return false;
    if (port && port !== '*' && (url.port || '443') !== port) return false;
    return !path || (path.endsWith('/') ? url.pathname.startsWith(path) : url.pathname === path);
  });
}

/** What an integration block renders to: its ContentKit, or the fallback naming the integration. */
export function integrationBlockHast(
  blocks: IntegrationBlocks | undefined, data: Data,
  helpers: Pick<ContentKitHelpers, 'markdown'> & { frame(url: URL, aspectRatio: number | undefined): ElementContent },
): ElementContent {
  const result = blocks?.results.get(keyOf(data));
  const name = typeof data.integration === 'string' ? data.integration : 'integration';
  if (!result?.block) return h('div.integration-block', h('p.integration-fallback', name));
  const nodes = contentKitHast(result.block, {
    markdown: helpers.markdown,
    frame: (url, ratio) => (frameAllowed(result.frameSources, url) ? helpers.frame(url, ratio) : undefined),
  });
  return h('div.integration-block', nodes);
}
