import { generateKeyBetween } from 'fractional-indexing';
import { type SiteItem, type SiteSectionGroupItem, type SiteSectionItem, type SiteSpaceItem } from '../../db/entities/site.ts';
import type { ShareLinkItem } from '../../db/entities/share-link.ts';
import type { SiteCustomizationItem } from '../../db/entities/site-customization.ts';
import type { Role } from '../../http/schemas.ts';
import type { SpaceItem } from '../../db/entities/space.ts';
import { isExpired } from '../../policies/access.ts';

/** A site and everything in its partition, children in tree order. */
export interface SiteTree {
  site: SiteItem;
  siteSpaces: SiteSpaceItem[];
  sections: SiteSectionItem[];
  groups: SiteSectionGroupItem[];
  shareLinks: ShareLinkItem[];
  /** The site's and its site spaces' customization records: same partition, same Query (shared/reader/customization.ts). */
  customizations: SiteCustomizationItem[];
}

/**
 * Whether a site space shows its space: only while the space exists, out of the trash, in
 * the site's own organization. A space deleted (restorable for 7 days), transferred to
 * another organization, or past its retention stays referenced by the site's records but is
 * absent from the site everywhere: the API's structure and lists, site search and the
 * published reader. Restored or transferred back, it shows again.
 */
export function showsSpace(site: Pick<SiteItem, 'orgId'>, space: SpaceItem | undefined): space is SpaceItem {
  return space !== undefined && space.orgId === site.orgId && !space.deletedAt && !isExpired(space);
}

/** Parent of sections and groups: a group id, or undefined for the root of the site. */
export function childrenOf(tree: SiteTree, parent: string | undefined): ({ kind: 'section'; item: SiteSectionItem } | { kind: 'group'; item: SiteSectionGroupItem })[] {
  const items = [
    ...tree.sections.filter((s) => s.sectionGroup === parent).map((item) => ({ kind: 'section' as const, item })),
    ...tree.groups.filter((g) => g.sectionGroup === parent).map((item) => ({ kind: 'group' as const, item })),
  ];
  return items.sort((a, b) => (a.item.position < b.item.position ? -1 : a.item.position > b.item.position ? 1 : a.item.id < b.item.id ? -1 : 1));
}

/** Sections in reading order (depth first through the groups). */
export function sectionsInOrder(tree: SiteTree): SiteSectionItem[] {
  const out: SiteSectionItem[] = [];
  const walk = (parent: string | undefined) => {
    for (const child of childrenOf(tree, parent)) {
      if (child.kind === 'section') out.push(child.item);
      else walk(child.item.id);
    }
  };
  walk(undefined);
  return out;
}

/** Groups in reading order (depth first). */
export function groupsInOrder(tree: SiteTree): SiteSectionGroupItem[] {
  const out: SiteSectionGroupItem[] = [];
  const walk = (parent: string | undefined) => {
    for (const child of childrenOf(tree, parent)) {
      if (child.kind === 'group') {
        out.push(child.item);
        walk(child.item.id);
      }
    }
  };
  walk(undefined);
  return out;
}

export function siteSpacesIn(tree: SiteTree, section: string | undefined): SiteSpaceItem[] {
  return tree.siteSpaces.filter((s) => s.section === section).sort((a, b) => (a.position < b.position ? -1 : a.position > b.position ? 1 : 0));
}

/** Site spaces in reading order: root ones, then section by section. */
export function siteSpacesInOrder(tree: SiteTree): SiteSpaceItem[] {
  return [...siteSpacesIn(tree, undefined), ...sectionsInOrder(tree).flatMap((s) => siteSpacesIn(tree, s.id))];
}

export function positionAtEnd(siblings: { position: string }[]): string {
  const last = siblings.reduce<string | null>((max, s) => (max === null || s.position > max ? s.position : max), null);
  return generateKeyBetween(last, null);
}

/** Position right before or after `target` among `siblings` (which must contain it). */
export function positionNextTo(siblings: { id: string; position: string }[], targetId: string, side: 'before' | 'after'): string {
  const index = siblings.findIndex((s) => s.id === targetId);
  const [low, high] = side === 'before'
    ? [siblings[index - 1]?.position ?? null, siblings[index]!.position]
    : [siblings[index]!.position, siblings[index + 1]?.position ?? null];
  return generateKeyBetween(low, high);
}

/** Default site space (of a section, or of the root level). */
export function isDefaultSiteSpace(tree: SiteTree, siteSpace: SiteSpaceItem): boolean {
  if (siteSpace.section === undefined) return tree.site.defaultSiteSpace === siteSpace.id;
  return tree.sections.find((s) => s.id === siteSpace.section)?.defaultSiteSpace === siteSpace.id;
}

/** A URL path segment from a title: lower-case ASCII letters, digits and dashes. */
export function slugify(text: string, fallback: string): string {
  const slug = text.normalize('NFKD').replace(/[\u0300-\u036f]/g, '').toLowerCase()
    .replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 90).replace(/-+$/, '');
  return slug || fallback;
}

/** `base`, or `base-2`, `base-3`, ... : the first not in `taken`. */
export function uniquePath(base: string, taken: Set<string>): string {
  if (!taken.has(base)) return base;
  for (let i = 2; ; i++) {
    const candidate = `${base.slice(0, 100 - String(i).length - 1)}-${i}`;
    if (!taken.has(candidate)) return candidate;
  }
}

/** The caller's org role, for presenting sites. */
export type SiteRole = Role | null;
