import type { Context } from 'hono';
import * as v from 'valibot';
import type { SiteTree } from '../../shared/commands/sites/tree.ts';
import { keyString } from '../../shared/db/entity.ts';
import { batchGetRecords, type StoredRecord } from '../../shared/db/operations.ts';
import type { Key } from '../../shared/db/table.ts';
import { loadPublishedTree, type SpaceRecordsReader } from '../../shared/reader/site.ts';
import { siteScripts, type SiteScript } from '../../shared/reader/site-scripts.ts';
import { SizedLru } from '../../shared/sized-lru.ts';
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

/** What this instance saw of a site at its last view: its organization, and the keys of the spaces its tree named. */
interface SiteHint {
  orgId?: string;
  spaceKeys?: Key[];
}

/** Sites an instance remembers (least recently viewed first out; each counts 1): two short lists each. */
const MAX_HINTS = 1_000;
const hints = new SizedLru<SiteHint>(MAX_HINTS);

function remember(siteId: string, hint: SiteHint): void {
  hints.set(siteId, { ...hints.get(siteId), ...hint }, 1);
}

/** The reads of a page view that follow the site's tree, started early for a site this instance saw before. */
export interface SiteReads {
  /** Its spaces' records (readerSite), from the early read when it holds every key asked for. */
  spaceRecords: SpaceRecordsReader;
  /** The integrations' site scripts of the tree's site, from the early read when it was of the same organization. */
  scripts(site: { id: string; orgId: string }): Promise<SiteScript[]>;
}

/**
 * A page view reads the site's tree (its partition), then the records of the spaces it names
 * and the integrations installed in its organization. The tree names both, so they waited for
 * it: two sequential steps. An instance remembers them per site, and on the next view reads them
 * while the tree's Query is still in flight (called once the request passed its rate limit, so a
 * refused request reads nothing more). Whatever the tree then says is what counts: records of a
 * space it no longer names are ignored, a space it names that was not read early is read then,
 * and scripts read for another organization are read again. Every read is fresh: only which keys
 * to read is remembered, never what they hold.
 */
export function siteReads(siteId: string, options: { scripts: boolean }): SiteReads {
  const known = hints.get(siteId);
  const earlySpaces = known?.spaceKeys ? { keys: new Set(known.spaceKeys.map(keyString)), records: batchGetRecords(known.spaceKeys) } : undefined;
  const earlyScripts = known?.orgId && options.scripts ? { orgId: known.orgId, scripts: siteScripts({ id: siteId, orgId: known.orgId }) } : undefined;
  // Awaited below when the tree confirms them; else their failures are nobody's.
  earlySpaces?.records.catch(() => undefined);
  earlyScripts?.scripts.catch(() => undefined);
  return {
    async spaceRecords(keys) {
      remember(siteId, { spaceKeys: keys });
      if (!earlySpaces) return batchGetRecords(keys);
      const missing = keys.filter((key) => !earlySpaces.keys.has(keyString(key)));
      const [early, late] = await Promise.all([earlySpaces.records, missing.length > 0 ? batchGetRecords(missing) : new Map<string, StoredRecord>()]);
      return new Map([...early, ...late]);
    },
    scripts(site) {
      remember(siteId, { orgId: site.orgId });
      return earlyScripts?.orgId === site.orgId ? earlyScripts.scripts : siteScripts(site);
    },
  };
}
