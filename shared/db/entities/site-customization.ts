import { defineEntity } from '../entity.ts';
import { sitePartition } from './site-partition.ts';

/** The site's own settings (`scope` of the site-level record). */
export const SITE_SCOPE = 'site';

export interface SiteCustomizationItem {
  siteId: string;
  /** `site` for the site's settings, else the id of the site space they override. */
  scope: string;
  /**
   * scope `site`: the settings as last written with PUT (validated; fields left out take
   * their defaults when presented). A site space: its overrides, merged over the site's.
   */
  settings: Record<string, unknown>;
  updatedAt: string;
}

const PREFIX = 'CUSTOMIZATION#';

/**
 * SITE#<site> / CUSTOMIZATION#<scope>: in the site's partition, deleted with the site.
 * Outside the site's structure (no `version` lock): a PUT or PATCH replaces one record.
 */
export const siteCustomizationEntity = defineEntity<SiteCustomizationItem>()({
  type: 'site-customization',
  key: ({ siteId, scope }: { siteId: string; scope: string }) => ({ pk: sitePartition(siteId), sk: `${PREFIX}${scope}` }),
  partitions: {
    /** The site's settings and every site space's overrides, in one query. */
    inSite: (a: { siteId: string }) => ({ pk: sitePartition(a.siteId), prefix: PREFIX }),
  },
});
