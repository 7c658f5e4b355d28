import { nowIso } from '../../shared/clock.ts';
import { badRequest, notFound } from '../../shared/http/errors.ts';
import { operationRoutes, route } from '../../shared/http/route.ts';
import * as op from './operations.ts';
import { pageOfArray } from '../../shared/http/array-page.ts';
import { changeSite } from '../../shared/commands/sites/change.ts';
import { isDefaultSiteSpace, positionAtEnd, positionNextTo, sectionsInOrder, showsSpace, siteSpacesIn, siteSpacesInOrder, type SiteTree } from '../../shared/commands/sites/tree.ts';
import { spaceEntity, type SpaceItem } from '../../shared/db/entities/space.ts';
import type { RequestScope } from '../../shared/http/scope.ts';
import { loadSiteIn, resolveSpace } from '../../shared/presenters/read/site-tree.ts';
import { Rejection } from '../../shared/commands/retry.ts';
import { presentSiteSpace, presentSiteSpaces } from '../../shared/presenters/site.ts';
import { presentList } from '../../shared/presenters/list.ts';
import { structureContext } from './context.ts';
import { deleteOrNoContent } from './delete.ts';
import { newSiteSpace } from './sites.ts';

function findSiteSpace(tree: SiteTree, siteSpaceId: string) {
  const found = tree.siteSpaces.find((s) => s.id === siteSpaceId);
  if (!found) throw notFound(`No site space found with id ${siteSpaceId}`);
  return found;
}

/**
 * A site space the site shows (showsSpace): one whose space was deleted or left the
 * organization is absent from every list, so changing it is a 404 as well (DELETE still
 * removes it; PATCH with `spaceId` points it at a space again).
 */
async function findShownSiteSpace(request: RequestScope, tree: SiteTree, siteSpaceId: string) {
  const found = findSiteSpace(tree, siteSpaceId);
  const record = await request.loader.get(spaceEntity.key({ spaceId: found.spaceId }));
  if (!showsSpace(tree.site, record ? spaceEntity.fromRecord(record) as SpaceItem : undefined)) throw notFound(`No site space found with id ${siteSpaceId}`);
  return found;
}

/** Site spaces (spec 4.8): a space shown by a site, at its root or in a section. */
export const siteSpacesRoutes = operationRoutes();

route(siteSpacesRoutes, op.listSiteSpaces, async (c) => {
  const { organizationId, siteId } = c.req.valid('param');
  const query = c.req.valid('query');
  const { tree, org } = await loadSiteIn(c.var.scope, organizationId, siteId, 'read');
  const ctx = await structureContext(c, org, tree, query.shareKey);
  const all = siteSpacesInOrder(tree).filter((s) => query.default === undefined || isDefaultSiteSpace(tree, s) === query.default);
  const page = pageOfArray(presentSiteSpaces(all, ctx), { limit: query.limit, cursor: query.page, scope: `site-spaces:${siteId}:${query.default}` });
  return c.json(presentList(page.items, page.next));
});

route(siteSpacesRoutes, op.addSpaceToSite, async (c) => {
  const { organizationId, siteId } = c.req.valid('param');
  const body = c.req.valid('json');
  const { tree, result, access } = await changeSite(c.var.scope, organizationId, siteId, 'create', async (t) => {
    const space = await resolveSpace(c.var.scope, organizationId, body.spaceId, 'spaceId');
    let section: string | undefined;
    if (body.sectionId !== undefined) {
      if (!t.sections.some((s) => s.id === body.sectionId)) throw badRequest(`sectionId: no section ${body.sectionId} in this site`);
      section = body.sectionId;
    } else if (t.sections.length) {
      section = t.site.defaultSiteSection ?? sectionsInOrder(t)[0]!.id;
    }
    const siteSpace = newSiteSpace(t, space, section, nowIso());
    t.siteSpaces.push(siteSpace);
    return siteSpace.id;
  });
  const ctx = await structureContext(c, access.org, tree);
  return c.json(presentSiteSpace(findSiteSpace(tree, result), ctx), 201);
});

route(siteSpacesRoutes, op.updateSiteSpaceById, async (c) => {
  const { organizationId, siteId, siteSpaceId } = c.req.valid('param');
  const body = c.req.valid('json');
  const { tree, access } = await changeSite(c.var.scope, organizationId, siteId, 'create', async (t) => {
    const siteSpace = body.spaceId !== undefined ? findSiteSpace(t, siteSpaceId) : await findShownSiteSpace(c.var.scope, t, siteSpaceId);
    if (body.path !== undefined && body.path !== siteSpace.path) {
      const clash = siteSpacesIn(t, siteSpace.section).some((s) => s.id !== siteSpace.id && s.path === body.path);
      if (clash) throw new Rejection(409, `path: another site space of the same ${siteSpace.section ? 'section' : 'site'} uses ${body.path}`);
      siteSpace.path = body.path;
    }
    if (body.condition === null) delete siteSpace.condition;
    else if (body.condition !== undefined) siteSpace.condition = body.condition;
    if (body.spaceId !== undefined) siteSpace.spaceId = (await resolveSpace(c.var.scope, organizationId, body.spaceId, 'spaceId')).id;
  });
  const ctx = await structureContext(c, access.org, tree);
  return c.json(presentSiteSpace(findSiteSpace(tree, siteSpaceId), ctx));
});

route(siteSpacesRoutes, op.deleteSiteSpaceById, async (c) => {
  const { organizationId, siteId, siteSpaceId } = c.req.valid('param');
  // 204 in every case (spec 4.8).
  return deleteOrNoContent(c, organizationId, siteId, (t) => {
    const before = t.siteSpaces.length;
    t.siteSpaces = t.siteSpaces.filter((s) => s.id !== siteSpaceId);
    return t.siteSpaces.length < before;
  }, { deleted: 204 });
});

route(siteSpacesRoutes, op.moveSiteSpace, async (c) => {
  const { organizationId, siteId, siteSpaceId } = c.req.valid('param');
  const { position } = c.req.valid('json');
  const { tree, access } = await changeSite(c.var.scope, organizationId, siteId, 'create', async (t) => {
    const siteSpace = await findShownSiteSpace(c.var.scope, t, siteSpaceId);
    const siblings = siteSpacesIn(t, siteSpace.section).filter((s) => s.id !== siteSpace.id);
    if (!position) {
      siteSpace.position = positionAtEnd(siblings);
      return;
    }
    const side = 'before' in position ? 'before' : 'after';
    const target = 'before' in position ? position.before.siteSpace : position.after.siteSpace;
    if (!siblings.some((s) => s.id === target)) {
      throw badRequest(`position: site space ${target} is not another site space of the same ${siteSpace.section ? 'section' : 'site level'}`);
    }
    siteSpace.position = positionNextTo(siblings, target, side);
  });
  const ctx = await structureContext(c, access.org, tree);
  return c.json(presentSiteSpace(findSiteSpace(tree, siteSpaceId), ctx));
});
