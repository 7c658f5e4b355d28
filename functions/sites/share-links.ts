import { nowIso } from '../../shared/clock.ts';
import { randomId } from '../../shared/ids.ts';
import { notFound } from '../../shared/http/errors.ts';
import { operationRoutes, route } from '../../shared/http/route.ts';
import * as op from './operations.ts';
import { pageOfArray } from '../../shared/http/array-page.ts';
import type { ShareLinkItem } from '../../shared/db/entities/share-link.ts';
import { changeSite } from '../../shared/commands/sites/change.ts';
import { loadSiteIn } from '../../shared/presenters/read/site-tree.ts';
import { type SiteTree } from '../../shared/commands/sites/tree.ts';
import { hashShareSecret, newShareSecret, sealShareSecret } from '../../shared/commands/sites/share-links.ts';
import { presentShareLink } from '../../shared/presenters/site.ts';
import { presentList } from '../../shared/presenters/list.ts';
import { deleteOrNoContent } from './delete.ts';

function findLink(tree: SiteTree, shareLinkId: string): ShareLinkItem {
  const found = tree.shareLinks.find((l) => l.id === shareLinkId);
  if (!found) throw notFound(`No share link found with id ${shareLinkId}`);
  return found;
}

/** Share links (spec 4.11): secret URLs opening a share-link site. Admins only (they carry working secrets). */
export const shareLinksRoutes = operationRoutes();

route(shareLinksRoutes, op.listSiteShareLinks, async (c) => {
  const { organizationId, siteId } = c.req.valid('param');
  const query = c.req.valid('query');
  const { tree, org } = await loadSiteIn(c.var.scope, organizationId, siteId, 'admin');
  const page = pageOfArray(tree.shareLinks, { limit: query.limit, cursor: query.page, scope: `share-links:${siteId}` });
  return c.json(presentList(await Promise.all(page.items.map((l) => presentShareLink(l, tree.site, org))), page.next));
});

route(shareLinksRoutes, op.createSiteShareLink, async (c) => {
  const { organizationId, siteId } = c.req.valid('param');
  const { name } = c.req.valid('json');
  const id = randomId();
  const secret = newShareSecret();
  const sealedSecret = await sealShareSecret(secret, id);
  const { tree, result, access } = await changeSite(c.var.scope, organizationId, siteId, 'admin', (t) => {
    const now = nowIso();
    t.shareLinks.push({ id, siteId, name, active: true, secretHash: hashShareSecret(secret), sealedSecret, createdAt: now, updatedAt: now });
    return id;
  });
  return c.json(await presentShareLink(findLink(tree, result), tree.site, access.org), 201);
});

route(shareLinksRoutes, op.updateSiteShareLinkById, async (c) => {
  const { organizationId, siteId, shareLinkId } = c.req.valid('param');
  const body = c.req.valid('json');
  const { tree, access } = await changeSite(c.var.scope, organizationId, siteId, 'admin', (t) => {
    const link = findLink(t, shareLinkId);
    if (body.active !== undefined) link.active = body.active;
    if (body.name !== undefined) link.name = body.name;
    link.updatedAt = nowIso();
  });
  return c.json(await presentShareLink(findLink(tree, shareLinkId), tree.site, access.org));
});

route(shareLinksRoutes, op.deleteSiteShareLinkById, async (c) => {
  const { organizationId, siteId, shareLinkId } = c.req.valid('param');
  return deleteOrNoContent(c, organizationId, siteId, (t) => {
    const before = t.shareLinks.length;
    t.shareLinks = t.shareLinks.filter((l) => l.id !== shareLinkId);
    return t.shareLinks.length < before;
  }, { deleted: 204, need: 'admin' });
});
