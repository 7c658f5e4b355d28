import type { Context } from 'hono';
import type { AppEnv } from '../../shared/http/env.ts';
import { nowIso } from '../../shared/clock.ts';
import { randomId } from '../../shared/ids.ts';
import { badRequest, conflict, notFound } from '../../shared/http/errors.ts';
import { operationRoutes, route } from '../../shared/http/route.ts';
import * as op from './operations.ts';
import { transact, type Write } from '../../shared/db/writes.ts';
import {
  siteContents, siteEntity, siteSectionEntity, siteSectionGroupEntity, siteSpaceEntity, type SiteItem, type SiteSpaceItem,
} from '../../shared/db/entities/site.ts';
import { shareLinkEntity } from '../../shared/db/entities/share-link.ts';
import { siteCustomizationEntity } from '../../shared/db/entities/site-customization.ts';
import { changeSite, normalizeTree } from '../../shared/commands/sites/change.ts';
import { loadSiteIn, loadSiteOrgAccess, resolveSpace } from '../../shared/presenters/read/site-tree.ts';
import { positionAtEnd, sectionsInOrder, siteSpacesIn, slugify, uniquePath, type SiteTree } from '../../shared/commands/sites/tree.ts';
import { Rejection } from '../../shared/commands/retry.ts';
import { checkAdaptiveSchema, templateConditions } from '../../shared/commands/sites/adaptive.ts';
import { presentPublishedSite, presentSite } from '../../shared/presenters/site.ts';
import { treeCustomization } from '../../shared/reader/customization.ts';
import { presentList } from '../../shared/presenters/list.ts';
import { apiLocation } from '../../shared/presenters/urls.ts';
import { structureContext } from './context.ts';
import { siteScripts } from '../../shared/reader/site-scripts.ts';

/** Sites (spec 4.7): CRUD, publishing, the published profile and the adaptive schema. */
export const sitesRoutes = operationRoutes();

route(sitesRoutes, op.listSites, async (c) => {
  const { organizationId } = c.req.valid('param');
  const { page, limit, space, title, published, type } = c.req.valid('query');
  const { org, role } = await loadSiteOrgAccess(c.var.scope, organizationId, 'read');
  const filtered = space !== undefined || (title !== undefined && title !== '') || published !== undefined || type !== undefined;
  const result = await siteEntity.query.byOrg({ orgId: organizationId }, {
    where: filtered
      ? (w) => w.and(
          space !== undefined && w.hasEntry('spaceRefs', space),
          title !== undefined && title !== '' && w.contains('titleLower', title.toLowerCase()),
          published !== undefined && w.eq('published', published),
          type !== undefined && w.or(...type.map((t) => w.eq('type', t))),
        )
      : undefined,
  }).page({ limit, cursor: page });
  const items = result.items.map((site) => presentSite(site, org, role));
  return c.json(presentList(items, result.next));
});

route(sitesRoutes, op.createSite, async (c) => {
  const { organizationId } = c.req.valid('param');
  const body = c.req.valid('json');
  const { org, role } = await loadSiteOrgAccess(c.var.scope, organizationId, 'create');
  const spaces = [];
  for (const [index, spaceId] of (body.spaces ?? []).entries()) spaces.push(await resolveSpace(c.var.scope, organizationId, spaceId, `spaces.${index}`));
  const now = nowIso();
  const title = body.title ?? 'Untitled site';
  const site: SiteItem = {
    id: randomId(),
    orgId: organizationId,
    type: body.type ?? 'basic',
    title,
    titleLower: title.toLowerCase(),
    visibility: body.visibility ?? 'public',
    published: false,
    adaptiveContent: { enabled: false },
    agentsContext: 'included',
    siteSpaces: 0,
    spaceRefs: {},
    version: 1,
    createdBy: c.get('caller').userId,
    createdAt: now,
    updatedAt: now,
  };
  const tree: SiteTree = { site, siteSpaces: [], sections: [], groups: [], shareLinks: [], customizations: [] };
  for (const space of spaces) tree.siteSpaces.push(newSiteSpace(tree, space, undefined, now));
  normalizeTree(tree);
  await transact([
    siteEntity.create({ siteId: site.id }, tree.site),
    ...tree.siteSpaces.map((s) => siteSpaceEntity.put({ siteId: site.id, siteSpaceId: s.id }, s)),
  ]);
  c.header('Location', apiLocation(`/orgs/${organizationId}/sites/${site.id}`));
  return c.json(presentSite(tree.site, org, role), 201);
});

route(sitesRoutes, op.getSiteById, async (c) => {
  const { organizationId, siteId } = c.req.valid('param');
  const site = await loadSiteRecord(c, organizationId, siteId);
  const { org, role } = await loadSiteOrgAccess(c.var.scope, organizationId, 'read');
  return c.json(presentSite(site, org, role));
});

route(sitesRoutes, op.updateSiteById, async (c) => {
  const { organizationId, siteId } = c.req.valid('param');
  const body = c.req.valid('json');
  if (body.basename !== undefined) await checkBasenameFree(organizationId, siteId, body.basename);
  const { tree, access } = await changeSite(c.var.scope, organizationId, siteId, 'admin', (t) => {
    const site = t.site;
    if (body.title !== undefined) {
      site.title = body.title;
      site.titleLower = body.title.toLowerCase();
    }
    if (body.visibility !== undefined) site.visibility = body.visibility;
    if (body.basename !== undefined) site.basename = body.basename;
    if (body.adaptiveContent !== undefined) site.adaptiveContent = body.adaptiveContent;
    if (body.agentsContext !== undefined) site.agentsContext = body.agentsContext;
    if (body.proxy === null) delete site.proxy;
    else if (body.proxy !== undefined) site.proxy = body.proxy;
    if (body.defaultSiteSection !== undefined) {
      if (!t.sections.some((s) => s.id === body.defaultSiteSection)) throw badRequest(`defaultSiteSection: no section ${body.defaultSiteSection} in this site`);
      site.defaultSiteSection = body.defaultSiteSection;
    }
    if (body.defaultSiteSpace !== undefined) {
      // At the root level, or in the default section when the site has sections.
      const sectionId = t.sections.length ? (site.defaultSiteSection ?? sectionsInOrder(t)[0]!.id) : undefined;
      if (!siteSpacesIn(t, sectionId).some((s) => s.id === body.defaultSiteSpace)) {
        throw badRequest(`defaultSiteSpace: no site space ${body.defaultSiteSpace} ${sectionId ? 'in the default section' : 'at the root of this site'}`);
      }
      if (sectionId) t.sections.find((s) => s.id === sectionId)!.defaultSiteSpace = body.defaultSiteSpace;
      else site.defaultSiteSpace = body.defaultSiteSpace;
    }
    // A PATCH always answers the current site, even when nothing changed.
    site.updatedAt = nowIso();
  });
  return c.json(presentSite(tree.site, access.org, access.role));
});

route(sitesRoutes, op.deleteSiteById, async (c) => {
  const { organizationId, siteId } = c.req.valid('param');
  await loadSiteOrgAccess(c.var.scope, organizationId, 'admin');
  const contents = await siteContents.read({ siteId });
  const site = contents.site[0];
  if (!site || site.orgId !== organizationId) return c.body(null, 204);
  const children: Write<unknown>[] = [
    ...contents.groups.map((g) => siteSectionGroupEntity.delete({ siteId, groupId: g.id })),
    ...contents.sections.map((s) => siteSectionEntity.delete({ siteId, sectionId: s.id })),
    ...contents.shareLinks.map((l) => shareLinkEntity.delete({ siteId, shareLinkId: l.id })),
    ...contents.siteSpaces.map((s) => siteSpaceEntity.delete({ siteId, siteSpaceId: s.id })),
    ...contents.customizations.map((x) => siteCustomizationEntity.delete({ siteId, scope: x.scope })),
  ];
  // The site record goes with the first children, conditioned on its version (a
  // concurrent structure write makes the client retry); any further children follow.
  await transact([
    siteEntity.delete({ siteId }, (w) => w.eq('version', site.version)),
    ...children.slice(0, 99),
  ], () => conflict('The site was changed by another request; retry'));
  for (let i = 99; i < children.length; i += 100) await transact(children.slice(i, i + 100));
  // 205: the site has been deleted (204 says it did not exist).
  return c.body(null, 205);
});

route(sitesRoutes, op.publishSite, async (c) => {
  const { organizationId, siteId } = c.req.valid('param');
  const { tree, access } = await changeSite(c.var.scope, organizationId, siteId, 'create', (t) => {
    t.site.published = true;
  });
  return c.json(presentSite(tree.site, access.org, access.role));
});

route(sitesRoutes, op.getPublishedContentSite, async (c) => {
  const { organizationId, siteId } = c.req.valid('param');
  const { shareKey } = c.req.valid('query');
  const { tree, org, role } = await loadSiteIn(c.var.scope, organizationId, siteId, 'read');
  const [ctx, scripts] = await Promise.all([structureContext(c, org, tree, shareKey), siteScripts(tree.site)]);
  return c.json(presentPublishedSite(ctx, role, (siteSpaceId) => treeCustomization(tree, siteSpaceId),
    scripts.map((s) => ({ script: s.url, ...(s.contentSecurityPolicy ? { contentSecurityPolicy: s.contentSecurityPolicy } : {}), cookies: s.cookies }))));
});

route(sitesRoutes, op.getSiteAdaptiveSchema, async (c) => {
  const { organizationId, siteId } = c.req.valid('param');
  const site = await loadSiteRecord(c, organizationId, siteId);
  if (!site.adaptiveSchema) throw notFound(`No visitor attributes schema for site ${siteId}`);
  return c.json(presentAdaptiveSchema(site.adaptiveSchema));
});

route(sitesRoutes, op.updateSiteAdaptiveSchema, async (c) => {
  const { organizationId, siteId } = c.req.valid('param');
  const jsonSchema = checkAdaptiveSchema(c.req.valid('json').jsonSchema);
  const { tree } = await changeSite(c.var.scope, organizationId, siteId, 'admin', (t) => {
    t.site.adaptiveSchema = { jsonSchema, updatedAt: nowIso() };
  });
  return c.json(presentAdaptiveSchema(tree.site.adaptiveSchema!));
});

route(sitesRoutes, op.listSiteAdaptiveTemplateConditions, async (c) => {
  const { organizationId, siteId } = c.req.valid('param');
  const site = await loadSiteRecord(c, organizationId, siteId);
  return c.json({ items: templateConditions(site.adaptiveSchema?.jsonSchema) });
});

/** The site record alone (one GetItem), for reads that need no structure. */
async function loadSiteRecord(c: Context<AppEnv>, organizationId: string, siteId: string): Promise<SiteItem> {
  await loadSiteOrgAccess(c.var.scope, organizationId, 'read');
  const record = await c.get('loader').get(siteEntity.key({ siteId }));
  if (!record || record.orgId !== organizationId) throw notFound(`No site found with id ${siteId}`);
  return siteEntity.fromRecord(record);
}

function presentAdaptiveSchema(schema: { jsonSchema: Record<string, unknown>; updatedAt: string }) {
  return { object: 'site-adaptive-schema' as const, jsonSchema: schema.jsonSchema, updatedAt: schema.updatedAt };
}

/** A basename names the site's URL under the org hostname: one site per basename (409). */
async function checkBasenameFree(orgId: string, siteId: string, basename: string) {
  const taken = await siteEntity.query.byOrg({ orgId }, { where: (w) => w.and(w.eq('basename', basename), w.ne('id', siteId)) }).all();
  if (taken.length) throw new Rejection(409, `basename: another site of this organization uses ${basename}`);
}

/** A new site space for `space` at the end of `section` (or the root), its path unique there. */
export function newSiteSpace(tree: SiteTree, space: { id: string; title: string }, section: string | undefined, now: string): SiteSpaceItem {
  const siblings = siteSpacesIn(tree, section);
  return {
    id: randomId(),
    siteId: tree.site.id,
    spaceId: space.id,
    ...(section ? { section } : {}),
    path: uniquePath(slugify(space.title, 'space'), new Set(siblings.map((s) => s.path))),
    position: positionAtEnd(siblings),
    createdAt: now,
  };
}
