import { nowIso } from '../../shared/clock.ts';
import { randomId } from '../../shared/ids.ts';
import { badRequest, notFound } from '../../shared/http/errors.ts';
import { operationRoutes, route } from '../../shared/http/route.ts';
import * as op from './operations.ts';
import { pageOfArray } from '../../shared/http/array-page.ts';
import type { SiteSectionGroupItem } from '../../shared/db/entities/site.ts';
import { changeSite } from '../../shared/commands/sites/change.ts';
import { childrenOf, groupsInOrder, positionAtEnd, type SiteTree } from '../../shared/commands/sites/tree.ts';
import { loadSiteIn } from '../../shared/presenters/read/site-tree.ts';
import { presentGroup } from '../../shared/presenters/site.ts';
import { presentList } from '../../shared/presenters/list.ts';
import { structureContext } from './context.ts';
import { deleteOrNoContent } from './delete.ts';

function findGroup(tree: SiteTree, groupId: string): SiteSectionGroupItem {
  const found = tree.groups.find((g) => g.id === groupId);
  if (!found) throw notFound(`No site section group found with id ${groupId}`);
  return found;
}

/** Moves a section or group to the end of `parent`'s children (a group id, or the root). */
function reparent(tree: SiteTree, item: { sectionGroup?: string; position: string }, parent: string | undefined) {
  const position = positionAtEnd(childrenOf(tree, parent).map((child) => child.item).filter((i) => i !== item));
  if (parent) item.sectionGroup = parent;
  else delete item.sectionGroup;
  item.position = position;
}

/** Site section groups (spec 4.10): named groups of sections, nestable. */
export const sectionGroupsRoutes = operationRoutes();

route(sectionGroupsRoutes, op.listSiteSectionGroups, async (c) => {
  const { organizationId, siteId } = c.req.valid('param');
  const query = c.req.valid('query');
  const { tree, org } = await loadSiteIn(c.var.scope, organizationId, siteId, 'read');
  const ctx = await structureContext(c, org, tree);
  const page = pageOfArray(groupsInOrder(tree), { limit: query.limit, cursor: query.page, scope: `section-groups:${siteId}` });
  return c.json(presentList(page.items.map((g) => presentGroup(g, ctx)), page.next));
});

route(sectionGroupsRoutes, op.addSectionGroupToSite, async (c) => {
  const { organizationId, siteId } = c.req.valid('param');
  const body = c.req.valid('json');
  const { tree, result, access } = await changeSite(c.var.scope, organizationId, siteId, 'create', (t) => {
    if (body.parent !== undefined && !t.groups.some((g) => g.id === body.parent)) throw badRequest(`parent: no section group ${body.parent} in this site`);
    const sections = (body.sections ?? []).map((sectionId, index) => {
      const section = t.sections.find((s) => s.id === sectionId);
      if (!section) throw badRequest(`sections.${index}: no section ${sectionId} in this site`);
      return section;
    });
    const group: SiteSectionGroupItem = {
      id: randomId(),
      siteId,
      title: body.title,
      ...(body.icon ? { icon: body.icon } : {}),
      ...(body.parent ? { sectionGroup: body.parent } : {}),
      position: positionAtEnd(childrenOf(t, body.parent).map((child) => child.item)),
      createdAt: nowIso(),
    };
    t.groups.push(group);
    for (const section of sections) reparent(t, section, group.id);
    return group.id;
  });
  const ctx = await structureContext(c, access.org, tree);
  return c.json(presentGroup(findGroup(tree, result), ctx), 201);
});

route(sectionGroupsRoutes, op.updateSiteSectionGroupById, async (c) => {
  const { organizationId, siteId, siteSectionGroupId } = c.req.valid('param');
  const body = c.req.valid('json');
  const { tree, access } = await changeSite(c.var.scope, organizationId, siteId, 'create', (t) => {
    const group = findGroup(t, siteSectionGroupId);
    if (body.title !== undefined) group.title = body.title;
    if (body.icon === null) delete group.icon;
    else if (body.icon !== undefined) group.icon = body.icon;
  });
  const ctx = await structureContext(c, access.org, tree);
  return c.json(presentGroup(findGroup(tree, siteSectionGroupId), ctx));
});

route(sectionGroupsRoutes, op.deleteSiteSectionGroupById, async (c) => {
  const { organizationId, siteId, siteSectionGroupId } = c.req.valid('param');
  // Its sections and nested groups move up to its parent (the root for a top-level group), in
  // order; 204 in every case (spec 4.10).
  return deleteOrNoContent(c, organizationId, siteId, (t) => {
    const group = t.groups.find((g) => g.id === siteSectionGroupId);
    if (!group) return false;
    for (const child of childrenOf(t, group.id)) reparent(t, child.item, group.sectionGroup);
    t.groups = t.groups.filter((g) => g.id !== group.id);
    return true;
  }, { deleted: 204 });
});

route(sectionGroupsRoutes, op.addSectionToSiteSectionGroup, async (c) => {
  const { organizationId, siteId, siteSectionGroupId } = c.req.valid('param');
  const { sectionId } = c.req.valid('json');
  const { tree, access } = await changeSite(c.var.scope, organizationId, siteId, 'create', (t) => {
    const group = findGroup(t, siteSectionGroupId);
    const section = t.sections.find((s) => s.id === sectionId);
    if (!section) throw badRequest(`sectionId: no section ${sectionId} in this site`);
    if (section.sectionGroup !== group.id) reparent(t, section, group.id);
  });
  const ctx = await structureContext(c, access.org, tree);
  return c.json(presentGroup(findGroup(tree, siteSectionGroupId), ctx), 201);
});

route(sectionGroupsRoutes, op.removeSectionFromSiteSectionGroup, async (c) => {
  const { organizationId, siteId, siteSectionGroupId, siteSectionId } = c.req.valid('param');
  // The section leaves for the group's parent (the root for a top-level group); 204 in every case.
  return deleteOrNoContent(c, organizationId, siteId, (t) => {
    const group = t.groups.find((g) => g.id === siteSectionGroupId);
    const section = t.sections.find((s) => s.id === siteSectionId);
    if (!group || !section || section.sectionGroup !== group.id) return false;
    reparent(t, section, group.sectionGroup);
    return true;
  }, { deleted: 204 });
});
