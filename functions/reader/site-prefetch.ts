import type { Context } from 'hono';
import * as v from 'valibot';
import type { SiteTree } from '../../shared/commands/sites/tree.ts';
import { loadPublishedTree } from '../../shared/reader/site.ts';
import { siteIdSchema } from './schemas.ts';

/** Paths under a site that never read its tree (the reader's immutable assets, the visitor key's own route). */
const NO_TREE = new Set(['~assets', '~visitor-key']);

const prefetched = new WeakMap<Request, { siteId: string; tree: Promise<SiteTree | undefined> }>();

/**
 * Starts reading the site a reader path names (`/s/<siteId>/…`), so that the Query of its
 * partition runs beside the address counter's write (readerRateLimit) instead of after it:
 * one sequential storage call less per page view. A request over its limit still gets its 429
 * without anything rendered; the read is then wasted, as one Query.
 */
export function prefetchPublishedTree(c: Context): Promise<unknown> | undefined {
  const [, s, siteId, next] = c.req.path.split('/');
  if (s !== 's' || !siteId || !v.is(siteIdSchema, siteId) || NO_TREE.has(next ?? '')) return undefined;
  const tree = loadPublishedTree(siteId);
  prefetched.set(c.req.raw, { siteId, tree });
  return tree;
}

/** The published site `siteId` of this request: the prefetched read when there is one. */
export function publishedTreeOf(c: Context, siteId: string): Promise<SiteTree | undefined> {
  const started = prefetched.get(c.req.raw);
  return started?.siteId === siteId ? started.tree : loadPublishedTree(siteId);
}
