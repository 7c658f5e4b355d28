import { defineEntity } from '../entity.ts';
import { sitePartition } from './site-partition.ts';

/** The script an integration answered for a site (`fetch_published_script`), or its failure. */
export interface CachedSiteScript {
  body?: string;
  fetchedAt: number;
  failed: boolean;
}

/** SITE#<site> / INTEGRATION-SCRIPT#<name>#<version>: one per site and integration version. */
export const siteScriptCacheEntity = defineEntity<CachedSiteScript>()({
  type: 'site-integration-script',
  key: ({ siteId, name, version }: { siteId: string; name: string; version: number }) => ({ pk: sitePartition(siteId), sk: `INTEGRATION-SCRIPT#${name}#${version}` }),
});
