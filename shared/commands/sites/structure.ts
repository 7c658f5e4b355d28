import { generateKeyBetween } from 'fractional-indexing';
import { badRequest, conflict, notFound } from '../../http/errors.ts';
import { nowIso } from '../../clock.ts';
import { transact, type Write } from '../../db/writes.ts';
import {
  siteContents, siteEntity, siteSectionEntity, siteSectionGroupEntity, siteSpaceEntity,
  type SiteItem, type SiteSectionGroupItem, type SiteSectionItem, type SiteSpaceItem,
} from '../../db/entities/site.ts';
import { shareLinkEntity, type ShareLinkItem } from '../../db/entities/share-link.ts';
import { loadOrgAccess, loadSpaceAccess, type OrgAccess } from '../../policies/access.ts';
import { policies } from '../../policies/index.ts';
import type { Role } from '../../http/schemas.ts';
import type { SpaceItem } from '../../db/entities/space.ts';
import { retryOnConflict } from '../retry.ts';
import type { RequestScope } from '../../http/scope.ts';

/** A site and everything in its partition, children in tree order. */
export interface SiteTree {
  site: SiteItem;
  siteSpaces: SiteSpaceItem[];
  sections: SiteSectionItem[];
  groups: SiteSectionGroupItem[];
  shareLinks: ShareLinkItem[];
}

/** What a site operation needs (docs/permissions.md, "Sites"). */
export type SiteNeed = 'read' | 'create' | 'admin';

/**
 * The caller's org access for a site operation: 404 for non-members (loadOrgAccess),
 * 403 for guests and for members below the role the operation needs (policies.site).
 */
export async function loadSiteOrgAccess(request: RequestScope, orgId: string, need: SiteNeed): Promise<OrgAccess> {
  const access = await loadOrgAccess(request, orgId);
  policies.site.authorize(access, need);
  return access;
}

export async function loadSiteTree(siteId: string): Promise<SiteTree | undefined> {
  const contents = await siteContents.read({ siteId });
  const site = contents.site[0];
  if (!site) return undefined;
  const byPosition = <T extends { position: string; id: string }>(a: T, b: T) => (a.position < b.position ? -1 : a.position > b.position ? 1 : a.id < b.id ? -1 : 1);
  return {
    site,
    siteSpaces: contents.siteSpaces.sort(byPosition),
    sections: contents.sections.sort(byPosition),
    groups: contents.groups.sort(byPosition),
    shareLinks: contents.shareLinks.sort((a, b) => (a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : 0)),
  };
}

/** The site with its tree, in the given organization; 404 otherwise. */
export async function loadSiteIn(request: RequestScope, orgId: string, siteId: string, need: SiteNeed) {
  const access = await loadSiteOrgAccess(request, orgId, need);
  const tree = await loadSiteTree(siteId);
  if (!tree || tree.site.orgId !== orgId) throw notFound(`No site found with id ${siteId}`);
  return { ...access, tree };
}

/**
 * Read-modify-write of a site's structure: `change` edits a copy of the tree, then the
 * invariants are restored (normalize) and the difference is written in one transaction
 * conditioned on the site's `version`. A concurrent structure write makes it start over
 * from a fresh read (retryOnConflict), so sections, groups and site spaces always form
 * a consistent tree and the site's counters stay true.
 */
export async function changeSite<T>(
  request: RequestScope, orgId: string, siteId: string, need: SiteNeed,
  change: (tree: SiteTree, access: OrgAccess) => T | Promise<T>,
): Promise<{ tree: SiteTree; result: T; access: OrgAccess }> {
  return retryOnConflict(async () => {
    const { tree: before, ...access } = await loadSiteIn(request, orgId, siteId, need);
    const after = structuredClone(before);
    const result = await change(after, access);
    normalizeTree(after);
    await commitTree(before, after);
    return { tree: after, result, access };
  });
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

/** A space of the organization the caller can read, for a body field; 400 naming the field otherwise. */
export async function resolveSpace(request: RequestScope, orgId: string, spaceId: string, field: string): Promise<SpaceItem> {
  const missing = () => badRequest(`${field}: no space ${spaceId} in this organization`);
  const { space } = await loadSpaceAccess(request, spaceId).catch(() => {
    throw missing();
  });
  if (space.orgId !== orgId) throw missing();
  return space;
}

/**
 * Restores the tree's invariants after a change:
 * - children of a missing group move to the root; site spaces of a missing section go;
 * - a site with sections keeps no root site space (they are adopted by the change that
 *   creates the first section);
 * - `defaultSiteSection` names a section when there is one (the first in reading order
 *   otherwise); each section's `defaultSiteSpace` names one of its site spaces when it
 *   has any; the root `defaultSiteSpace` likewise;
 * - the site's `siteSpaces` count and `spaceRefs` match the site spaces.
 */
export function normalizeTree(tree: SiteTree): void {
  const groupIds = new Set(tree.groups.map((g) => g.id));
  for (const item of [...tree.sections, ...tree.groups]) {
    if (item.sectionGroup !== undefined && !groupIds.has(item.sectionGroup)) delete item.sectionGroup;
  }
  const sectionIds = new Set(tree.sections.map((s) => s.id));
  tree.siteSpaces = tree.siteSpaces.filter((s) => s.section === undefined ? tree.sections.length === 0 : sectionIds.has(s.section));
  const site = tree.site;
  const ordered = sectionsInOrder(tree);
  if (ordered.length === 0) delete site.defaultSiteSection;
  else if (!site.defaultSiteSection || !sectionIds.has(site.defaultSiteSection)) site.defaultSiteSection = ordered[0]!.id;
  for (const section of tree.sections) {
    const own = siteSpacesIn(tree, section.id);
    if (own.length === 0) delete section.defaultSiteSpace;
    else if (!section.defaultSiteSpace || !own.some((s) => s.id === section.defaultSiteSpace)) section.defaultSiteSpace = own[0]!.id;
  }
  const root = siteSpacesIn(tree, undefined);
  if (root.length === 0) delete site.defaultSiteSpace;
  else if (!site.defaultSiteSpace || !root.some((s) => s.id === site.defaultSiteSpace)) site.defaultSiteSpace = root[0]!.id;
  site.siteSpaces = tree.siteSpaces.length;
  const refs: Record<string, number> = {};
  for (const s of tree.siteSpaces) refs[s.spaceId] = (refs[s.spaceId] ?? 0) + 1;
  site.spaceRefs = refs;
}

/** Maximum items of one DynamoDB transaction. */
const MAX_TRANSACTION_ITEMS = 100;

/** Writes the difference between two versions of a tree, conditioned on the site's version. */
async function commitTree(before: SiteTree, after: SiteTree): Promise<void> {
  const items: Write<unknown>[] = [];
  const diff = <T extends { id: string }>(old: T[], now: T[], put: (item: T) => Write<unknown>, del: (item: T) => Write<unknown>) => {
    const previous = new Map(old.map((i) => [i.id, i]));
    for (const item of now) {
      const was = previous.get(item.id);
      if (!was || JSON.stringify(was) !== JSON.stringify(item)) items.push(put(item));
      previous.delete(item.id);
    }
    for (const gone of previous.values()) items.push(del(gone));
  };
  const siteId = before.site.id;
  diff(before.siteSpaces, after.siteSpaces, (s) => siteSpaceEntity.put({ siteId, siteSpaceId: s.id }, s), (s) => siteSpaceEntity.delete({ siteId, siteSpaceId: s.id }));
  diff(before.sections, after.sections, (s) => siteSectionEntity.put({ siteId, sectionId: s.id }, s), (s) => siteSectionEntity.delete({ siteId, sectionId: s.id }));
  diff(before.groups, after.groups, (g) => siteSectionGroupEntity.put({ siteId, groupId: g.id }, g), (g) => siteSectionGroupEntity.delete({ siteId, groupId: g.id }));
  diff(before.shareLinks, after.shareLinks, (l) => shareLinkEntity.put({ siteId, shareLinkId: l.id }, l), (l) => shareLinkEntity.delete({ siteId, shareLinkId: l.id }));
  if (items.length === 0 && JSON.stringify(before.site) === JSON.stringify(after.site)) return;
  if (items.length + 1 > MAX_TRANSACTION_ITEMS) {
    throw badRequest(`This change touches ${items.length} items of the site; at most ${MAX_TRANSACTION_ITEMS - 1} can change at once`);
  }
  const site: SiteItem = { ...after.site, version: before.site.version + 1, updatedAt: nowIso() };
  after.site = site;
  items.unshift(siteEntity.replace({ siteId }, site, (w) => w.eq('version', before.site.version)));
  await transact(items, () => conflict('The site was changed by another request; retry'));
}

/** The caller's org role, for presenting sites. */
export type SiteRole = Role | null;
