import { badRequest, conflict } from '../../http/errors.ts';
import { nowIso } from '../../clock.ts';
import { transact, type Write } from '../../db/writes.ts';
import { siteEntity, siteSectionEntity, siteSectionGroupEntity, siteSpaceEntity, type SiteItem } from '../../db/entities/site.ts';
import { shareLinkEntity } from '../../db/entities/share-link.ts';
import type { OrgAccess } from '../../policies/access.ts';
import { retryOnConflict } from '../retry.ts';
import type { RequestScope } from '../../http/scope.ts';
import { type SiteTree, sectionsInOrder, siteSpacesIn } from './tree.ts';
import { type SiteNeed, loadSiteIn } from '../../presenters/read/site-tree.ts';

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
