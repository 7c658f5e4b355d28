import { defineEntity } from '../entity.ts';
import { defineCollection } from '../collection.ts';
import { sitePartition } from './site-partition.ts';
import { shareLinkEntity } from './share-link.ts';
import { siteCustomizationEntity } from './site-customization.ts';

export const siteVisibilities = ['public', 'unlisted', 'share-link', 'visitor-auth'] as const;
export type SiteVisibility = (typeof siteVisibilities)[number];
export const siteTypes = ['basic', 'premium', 'ultimate', 'sponsored', 'legacy-basic', 'legacy-premium'] as const;
export type SiteType = (typeof siteTypes)[number];

export interface SiteItem {
  id: string;
  orgId: string;
  type: SiteType;
  title: string;
  /** Lower-case title, for the `title` filter of the list (contains, case-insensitive). */
  titleLower: string;
  visibility: SiteVisibility;
  published: boolean;
  basename?: string;
  /** Proxy origin such as `example.com/docs`. */
  proxy?: string;
  adaptiveContent: { enabled: boolean };
  agentsContext: 'excluded' | 'included';
  /** Default site space at the root level (sites without sections). */
  defaultSiteSpace?: string;
  /** Default section (sites with sections). */
  defaultSiteSection?: string;
  /** Number of site spaces (kept true by every structure write, see shared/commands/sites/change.ts). */
  siteSpaces: number;
  /** Space id -> number of site spaces showing it (the `space` filter of the list). */
  spaceRefs: Record<string, number>;
  adaptiveSchema?: { jsonSchema: Record<string, unknown>; updatedAt: string };
  /** Incremented by every structure write: the optimistic lock of the SITE# partition. */
  version: number;
  createdBy: string;
  createdAt: string;
  updatedAt: string;
}

/** Children of a site share the `SITE#<id>` partition and carry a fractional `position`. */
export interface SiteSpaceItem {
  id: string;
  siteId: string;
  spaceId: string;
  /** Section id; absent at the root level (sites without sections). */
  section?: string;
  path: string;
  condition?: string;
  position: string;
  createdAt: string;
}

export interface SiteSectionItem {
  id: string;
  siteId: string;
  title: string;
  description?: string;
  icon?: string;
  path: string;
  condition?: string;
  /** Parent section group; absent at the root of the site. */
  sectionGroup?: string;
  defaultSiteSpace?: string;
  /** Among the siblings (sections and groups of the same parent). */
  position: string;
  createdAt: string;
}

export interface SiteSectionGroupItem {
  id: string;
  siteId: string;
  title: string;
  icon?: string;
  /** Parent section group; absent at the root of the site. */
  sectionGroup?: string;
  position: string;
  createdAt: string;
}

/**
 * SITE#<id> / SITE; gsi1: the organization's sites by creation (ORG#<org>#SITES).
 * Site spaces, sections, section groups and share links live in the same partition.
 */
export const siteEntity = defineEntity<SiteItem>()({
  type: 'site',
  key: ({ siteId }: { siteId: string }) => ({ pk: sitePartition(siteId), sk: 'SITE' }),
  indexes: {
    byOrg: { index: 'gsi1', pk: (a: { orgId: string }) => `ORG#${a.orgId}#SITES`, sk: (s) => `${s.createdAt}#${s.id}` },
  },
});

export const siteSpaceEntity = defineEntity<SiteSpaceItem>()({
  type: 'site-space',
  key: ({ siteId, siteSpaceId }: { siteId: string; siteSpaceId: string }) => ({ pk: sitePartition(siteId), sk: `SITESPACE#${siteSpaceId}` }),
});

export const siteSectionEntity = defineEntity<SiteSectionItem>()({
  type: 'site-section',
  key: ({ siteId, sectionId }: { siteId: string; sectionId: string }) => ({ pk: sitePartition(siteId), sk: `SECTION#${sectionId}` }),
});

export const siteSectionGroupEntity = defineEntity<SiteSectionGroupItem>()({
  type: 'site-section-group',
  key: ({ siteId, groupId }: { siteId: string; groupId: string }) => ({ pk: sitePartition(siteId), sk: `SECTIONGROUP#${groupId}` }),
});

/** Everything a site holds, read in one Query of its partition. */
export const siteContents = defineCollection({
  pk: (a: { siteId: string }) => sitePartition(a.siteId),
  members: {
    site: siteEntity, siteSpaces: siteSpaceEntity, sections: siteSectionEntity, groups: siteSectionGroupEntity,
    shareLinks: shareLinkEntity, customizations: siteCustomizationEntity,
  },
});
