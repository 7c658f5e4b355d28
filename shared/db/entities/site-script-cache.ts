import { defineEntity } from '../entity.ts';
import { integrationPartition } from './integration.ts';

/** The script an integration answered for a site (`fetch_published_script`), or its failure. */
export interface CachedSiteScript {
  body?: string;
  fetchedAt: number;
  failed: boolean;
  /** TTL (epoch seconds): a day after it was fetched, so the scripts of deleted sites and old versions leave the table. */
  expiresAt: number;
}

/**
 * INTEGRATION#<name> / SITE-SCRIPT#<version>#<site>: one per site and integration version. In
 * the integration's partition, as block renders are, not the site's: the integration runtime
 * writes it, and the runtime may write no site partition (infra/constructs/access.ts).
 */
export const siteScriptCacheEntity = defineEntity<CachedSiteScript>()({
  type: 'site-integration-script',
  key: ({ siteId, name, version }: { siteId: string; name: string; version: number }) => ({ pk: integrationPartition(name), sk: `SITE-SCRIPT#${version}#${siteId}` }),
});
