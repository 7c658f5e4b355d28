import type { Context } from 'hono';
import type { AppEnv } from '../../shared/http/env.ts';
import { nowIso } from '../../shared/clock.ts';
import { config } from '../../shared/config.ts';
import { randomId } from '../../shared/ids.ts';
import { badRequest, conflict, notFound } from '../../shared/http/errors.ts';
import { route, type OperationRoutes } from '../../shared/http/route.ts';
import * as op from './operations.ts';
import { queryAll, queryPage, transact, type TransactItem } from '../../shared/db/operations.ts';
import { siteEntity, siteSpaceEntity, type SiteItem, type SiteSpaceItem } from '../../shared/db/entities/site.ts';
import {
  changeSite, loadSiteIn, loadSiteOrgAccess, normalizeTree, positionAtEnd, resolveSpace, sectionsInOrder,
  siteSpacesIn, slugify, uniquePath, type SiteTree,
} from '../../shared/commands/sites-structure.ts';
import { Rejection } from '../../shared/commands/retry.ts';
import { checkAdaptiveSchema, templateConditions } from '../../shared/commands/sites-adaptive.ts';
import { presentPublishedSite, presentSite } from '../../shared/presenters/site.ts';
import { loadCustomizations, presentCustomization } from '../../shared/reader/customization.ts';
import { presentList } from '../../shared/presenters/list.ts';
import { apiLocation } from '../../shared/presenters/urls.ts';
import { structureContext } from './context.ts';

/** Sites (spec 4.7): CRUD, publishing, the published profile and the adaptive schema. */
export function mountSites(app: OperationRoutes) {
  route(app, op.listSites, async (c) => {
    const { organizationId } = c.req.valid('param');
    const { page, limit, space, title, published } = c.req.valid('query');
    const { org, role } = await loadSiteOrgAccess(c.var.scope, organizationId, 'read');
    const conditions: string[] = [];
    const names: Record<string, string> = {};
    const values: Record<string, unknown> = {};
    if (space !== undefined) {
      conditions.push('attribute_exists(#refs.#space)');
      Object.assign(names, { '#refs': 'spaceRefs', '#space': space });
    }
    if (title !== undefined && title !== '') {
      conditions.push('contains(#titleLower, :title)');
      names['#titleLower'] = 'titleLower';
      values[':title'] = title.toLowerCase();
    }
    if (published !== undefined) {
      conditions.push('#published = :published');
      names['#published'] = 'published';
      values[':published'] = published;
    }
    const result = await queryPage({
      index: 'gsi1', partition: `ORG#${organizationId}#SITES`, limit, cursor: page,
      ...(conditions.length ? { filter: { expression: conditions.join(' AND '), names, values: Object.keys(values).length ? values : undefined } } : {}),
    });
    const items = result.records.map((r) => presentSite(siteEntity.fromRecord(r), org, role));
    return c.json(presentList(items, result.next));
  });

  route(app, op.createSite, async (c) => {
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
    const tree: SiteTree = { site, siteSpaces: [], sections: [], groups: [], shareLinks: [] };
    for (const space of spaces) tree.siteSpaces.push(newSiteSpace(tree, space, undefined, now));
    normalizeTree(tree);
    await transact([
      { Put: { TableName: config.tableName, Item: siteEntity.toRecord({ siteId: site.id }, tree.site), ConditionExpression: 'attribute_not_exists(pk)' } },
      ...tree.siteSpaces.map((s): TransactItem => ({ Put: { TableName: config.tableName, Item: siteSpaceEntity.toRecord({ siteId: site.id, siteSpaceId: s.id }, s) } })),
    ]);
    c.header('Location', apiLocation(`/orgs/${organizationId}/sites/${site.id}`));
    return c.json(presentSite(tree.site, org, role), 201);
  });

  route(app, op.getSiteById, async (c) => {
    const { organizationId, siteId } = c.req.valid('param');
    const site = await loadSiteRecord(c, organizationId, siteId);
    const { org, role } = await loadSiteOrgAccess(c.var.scope, organizationId, 'read');
    return c.json(presentSite(site, org, role));
  });

  route(app, op.updateSiteById, async (c) => {
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

  route(app, op.deleteSiteById, async (c) => {
    const { organizationId, siteId } = c.req.valid('param');
    await loadSiteOrgAccess(c.var.scope, organizationId, 'admin');
    const records = await queryAll({ partition: `SITE#${siteId}` });
    const siteRecord = records.find((r) => r.sk === 'SITE');
    if (!siteRecord || siteRecord.orgId !== organizationId) return c.body(null, 204);
    const children = records.filter((r) => r.sk !== 'SITE');
    // The site record goes with the first children, conditioned on its version (a
    // concurrent structure write makes the client retry); any further children follow.
    const remove = (r: Record<string, unknown>): TransactItem => ({ Delete: { TableName: config.tableName, Key: { pk: r.pk, sk: r.sk } } });
    await transact([
      { Delete: { TableName: config.tableName, Key: siteEntity.key({ siteId }), ConditionExpression: 'version = :version', ExpressionAttributeValues: { ':version': siteRecord.version } } },
      ...children.slice(0, 99).map(remove),
    ], () => conflict('The site was changed by another request; retry'));
    for (let i = 99; i < children.length; i += 100) await transact(children.slice(i, i + 100).map(remove));
    // 205: the site has been deleted (204 says it did not exist).
    return c.body(null, 205);
  });

  route(app, op.publishSite, async (c) => {
    const { organizationId, siteId } = c.req.valid('param');
    const { tree, access } = await changeSite(c.var.scope, organizationId, siteId, 'create', (t) => {
      t.site.published = true;
    });
    return c.json(presentSite(tree.site, access.org, access.role));
  });

  route(app, op.getPublishedContentSite, async (c) => {
    const { organizationId, siteId } = c.req.valid('param');
    const { shareKey } = c.req.valid('query');
    const { tree, org, role } = await loadSiteIn(c.var.scope, organizationId, siteId, 'read');
    const [ctx, stored] = await Promise.all([structureContext(c, org, tree, shareKey), loadCustomizations(siteId)]);
    return c.json(presentPublishedSite(ctx, role, (siteSpaceId) => presentCustomization(tree.site.title, stored, siteSpaceId)));
  });

  route(app, op.getSiteAdaptiveSchema, async (c) => {
    const { organizationId, siteId } = c.req.valid('param');
    const site = await loadSiteRecord(c, organizationId, siteId);
    if (!site.adaptiveSchema) throw notFound(`No visitor attributes schema for site ${siteId}`);
    return c.json(presentAdaptiveSchema(site.adaptiveSchema));
  });

  route(app, op.updateSiteAdaptiveSchema, async (c) => {
    const { organizationId, siteId } = c.req.valid('param');
    const jsonSchema = checkAdaptiveSchema(c.req.valid('json').jsonSchema);
    const { tree } = await changeSite(c.var.scope, organizationId, siteId, 'admin', (t) => {
      t.site.adaptiveSchema = { jsonSchema, updatedAt: nowIso() };
    });
    return c.json(presentAdaptiveSchema(tree.site.adaptiveSchema!));
  });

  route(app, op.listSiteAdaptiveTemplateConditions, async (c) => {
    const { organizationId, siteId } = c.req.valid('param');
    const site = await loadSiteRecord(c, organizationId, siteId);
    return c.json({ items: templateConditions(site.adaptiveSchema?.jsonSchema) });
  });
}

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
  const taken = await queryAll({
    index: 'gsi1', partition: `ORG#${orgId}#SITES`,
    filter: { expression: 'basename = :basename AND id <> :id', values: { ':basename': basename, ':id': siteId } },
  });
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
