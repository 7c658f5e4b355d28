import { operationRoutes, route } from '../../shared/http/route.ts';
import { notFound } from '../../shared/http/errors.ts';
import { nowIso } from '../../shared/clock.ts';
import { loadSiteIn } from '../../shared/presenters/read/site-tree.ts';
import { type SiteTree } from '../../shared/commands/sites/tree.ts';
import { retryOnConflict } from '../../shared/commands/retry.ts';
import { SITE_SCOPE, siteCustomizationEntity } from '../../shared/db/entities/site-customization.ts';
import { loadCustomizations, patchOverrides, presentCustomization, treeCustomization } from '../../shared/reader/customization.ts';
import * as op from './operations.ts';
import { run } from '../../shared/db/writes.ts';

/**
 * Customization of a site and of its site spaces (the public interface's operations): the
 * site's settings are replaced by PUT; a site space's overrides are merged by PATCH (null
 * resets a field to the site's value) and removed by DELETE. Reads answer the merged
 * settings (shared/reader/customization.ts), what the reader applies to the pages.
 */

function siteSpaceIn(tree: SiteTree, siteSpaceId: string): void {
  if (!tree.siteSpaces.some((s) => s.id === siteSpaceId)) throw notFound(`No site space found with id ${siteSpaceId}`);
}

export const customizationRoutes = operationRoutes();

route(customizationRoutes, op.getSiteCustomizationById, async (c) => {
  const { organizationId, siteId } = c.req.valid('param');
  const { tree } = await loadSiteIn(c.var.scope, organizationId, siteId, 'read');
  return c.json(treeCustomization(tree));
});

route(customizationRoutes, op.updateSiteCustomizationById, async (c) => {
  const { organizationId, siteId } = c.req.valid('param');
  const settings = c.req.valid('json');
  const { tree } = await loadSiteIn(c.var.scope, organizationId, siteId, 'admin');
  await run(siteCustomizationEntity.put({ siteId, scope: SITE_SCOPE }, { siteId, scope: SITE_SCOPE, settings, updatedAt: nowIso() }));
  return c.json(presentCustomization(tree.site.title, await loadCustomizations(siteId)));
});

route(customizationRoutes, op.getSiteSpaceCustomizationById, async (c) => {
  const { organizationId, siteId, siteSpaceId } = c.req.valid('param');
  const { tree } = await loadSiteIn(c.var.scope, organizationId, siteId, 'read');
  siteSpaceIn(tree, siteSpaceId);
  return c.json(treeCustomization(tree, siteSpaceId));
});

route(customizationRoutes, op.overrideSiteSpaceCustomizationById, async (c) => {
  const { organizationId, siteId, siteSpaceId } = c.req.valid('param');
  const patch = c.req.valid('json');
  const { tree } = await loadSiteIn(c.var.scope, organizationId, siteId, 'admin');
  siteSpaceIn(tree, siteSpaceId);
  const key = { siteId, scope: siteSpaceId };
  // Read, merge, write if unchanged meanwhile; a concurrent PATCH makes it start over.
  await retryOnConflict(async () => {
    const before = await siteCustomizationEntity.get(key, { consistent: true });
    const settings = patchOverrides(before?.settings ?? {}, patch);
    const item = { siteId, scope: siteSpaceId, settings, updatedAt: nowIso() };
    await run(siteCustomizationEntity.put(key, item, (w) => (before ? w.eq('updatedAt', before.updatedAt) : w.absent())));
  });
  return c.json(presentCustomization(tree.site.title, await loadCustomizations(siteId), siteSpaceId));
});

route(customizationRoutes, op.deleteSiteSpaceCustomizationById, async (c) => {
  const { organizationId, siteId, siteSpaceId } = c.req.valid('param');
  const { tree } = await loadSiteIn(c.var.scope, organizationId, siteId, 'admin');
  siteSpaceIn(tree, siteSpaceId);
  const deleted = await run(siteCustomizationEntity.delete({ siteId, scope: siteSpaceId }));
  return c.body(null, deleted ? 205 : 204);
});
