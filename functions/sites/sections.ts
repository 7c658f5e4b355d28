import { nowIso } from '../../shared/clock.ts';
import { randomId } from '../../shared/ids.ts';
import { badRequest, notFound } from '../../shared/http/errors.ts';
import { operationRoutes, route } from '../../shared/http/route.ts';
import * as op from './operations.ts';
import { pageOfArray } from '../../shared/http/array-page.ts';
import type { SiteSectionItem } from '../../shared/db/entities/site.ts';
import { changeSite } from '../../shared/commands/sites/change.ts';
import { childrenOf, positionAtEnd, positionNextTo, sectionsInOrder, siteSpacesIn, slugify, uniquePath, type SiteTree } from '../../shared/commands/sites/tree.ts';
import { loadSiteIn, resolveSpace } from '../../shared/presenters/read/site-tree.ts';
import { Rejection } from '../../shared/commands/retry.ts';
import { presentSection } from '../../shared/presenters/site.ts';
import { presentList } from '../../shared/presenters/list.ts';
import { structureContext } from './context.ts';
import { newSiteSpace } from './sites.ts';
import { deleteOrNoContent } from './delete.ts';

export function findSection(tree: SiteTree, sectionId: string): SiteSectionItem {
  const found = tree.sections.find((s) => s.id === sectionId);
  if (!found) throw notFound(`No site section found with id ${sectionId}`);
  return found;
}

/** Site sections (spec 4.9): top-level parts of a site, each with its site spaces. */
export const sectionsRoutes = operationRoutes();

route(sectionsRoutes, op.listSiteSections, async (c) => {
  const { organizationId, siteId } = c.req.valid('param');
  const query = c.req.valid('query');
  const { tree, org } = await loadSiteIn(c.var.scope, organizationId, siteId, 'read');
  const ctx = await structureContext(c, org, tree, query.shareKey);
  const page = pageOfArray(sectionsInOrder(tree), { limit: query.limit, cursor: query.page, scope: `sections:${siteId}` });
  return c.json(presentList(page.items.map((s) => presentSection(s, ctx)), page.next));
});

/** A section after the site's others, its path unique among them. */
function newSection(t: SiteTree, title: string, icon: string | null | undefined, now: string): SiteSectionItem {
  return {
    id: randomId(),
    siteId: t.site.id,
    title,
    ...(icon ? { icon } : {}),
    path: uniquePath(slugify(title, 'section'), new Set(t.sections.map((s) => s.path))),
    position: positionAtEnd(childrenOf(t, undefined).map((child) => child.item)),
    createdAt: now,
  };
}

route(sectionsRoutes, op.addSectionToSite, async (c) => {
  const { organizationId, siteId } = c.req.valid('param');
  const body = c.req.valid('json');
  const { tree, result, access } = await changeSite(c.var.scope, organizationId, siteId, 'create', async (t) => {
    const space = await resolveSpace(c.var.scope, organizationId, body.spaceId, 'spaceId');
    const now = nowIso();
    // A site shows root site spaces or sections, never both. As in GitBook, where a site's
    // content starts as one section named after the site: the first section added to a site
    // with root content puts that content in a section of the site's name (first, so the
    // default), and the requested section follows it as a second tab.
    if (t.sections.length === 0 && t.siteSpaces.length > 0) {
      const rootSection = newSection(t, t.site.title, undefined, now);
      for (const s of t.siteSpaces) s.section = rootSection.id;
      t.sections.push(rootSection);
    }
    const section = newSection(t, body.title ?? space.title, body.icon, now);
    t.sections.push(section);
    t.siteSpaces.push(newSiteSpace(t, space, section.id, now));
    return section.id;
  });
  const ctx = await structureContext(c, access.org, tree);
  return c.json(presentSection(findSection(tree, result), ctx), 201);
});

route(sectionsRoutes, op.updateSiteSectionById, async (c) => {
  const { organizationId, siteId, siteSectionId } = c.req.valid('param');
  const body = c.req.valid('json');
  const { tree, access } = await changeSite(c.var.scope, organizationId, siteId, 'create', (t) => {
    const section = findSection(t, siteSectionId);
    if (body.title !== undefined) section.title = body.title;
    if (body.path !== undefined && body.path !== section.path) {
      if (t.sections.some((s) => s.id !== section.id && s.path === body.path)) {
        throw new Rejection(409, `path: another section of this site uses ${body.path}`);
      }
      section.path = body.path;
    }
    if (body.defaultSiteSpace !== undefined) {
      if (!siteSpacesIn(t, section.id).some((s) => s.id === body.defaultSiteSpace)) {
        throw badRequest(`defaultSiteSpace: no site space ${body.defaultSiteSpace} in this section`);
      }
      section.defaultSiteSpace = body.defaultSiteSpace;
    }
    for (const field of ['condition', 'icon', 'description'] as const) {
      const value = body[field];
      if (value === null) delete section[field];
      else if (value !== undefined) section[field] = value;
    }
  });
  const ctx = await structureContext(c, access.org, tree);
  return c.json(presentSection(findSection(tree, siteSectionId), ctx));
});

route(sectionsRoutes, op.deleteSiteSectionById, async (c) => {
  const { organizationId, siteId, siteSectionId } = c.req.valid('param');
  // Its site spaces go with it (normalizeTree drops site spaces of a missing section).
  return deleteOrNoContent(c, organizationId, siteId, (t) => {
    const before = t.sections.length;
    t.sections = t.sections.filter((s) => s.id !== siteSectionId);
    return t.sections.length < before;
  }, { deleted: 205 });
});

route(sectionsRoutes, op.moveSiteSection, async (c) => {
  const { organizationId, siteId, siteSectionId } = c.req.valid('param');
  const { position } = c.req.valid('json');
  const { tree, access } = await changeSite(c.var.scope, organizationId, siteId, 'create', (t) => {
    const section = findSection(t, siteSectionId);
    const siblings = childrenOf(t, section.sectionGroup).map((child) => child.item).filter((s) => s.id !== section.id);
    if (!position) {
      section.position = positionAtEnd(siblings);
      return;
    }
    const side = 'before' in position ? 'before' : 'after';
    const target = 'before' in position ? position.before.siteSection : position.after.siteSection;
    if (!t.sections.some((s) => s.id === target && s.id !== section.id && s.sectionGroup === section.sectionGroup)) {
      throw badRequest(`position: section ${target} is not another section of the same ${section.sectionGroup ? 'section group' : 'site level'}`);
    }
    section.position = positionNextTo(siblings, target, side);
  });
  const ctx = await structureContext(c, access.org, tree);
  return c.json(presentSection(findSection(tree, siteSectionId), ctx));
});
