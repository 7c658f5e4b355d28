import type { Context } from 'hono';
import type { AppEnv } from '../../shared/http/env.ts';
import { operationRoutes, route } from '../../shared/http/route.ts';
import { notFound } from '../../shared/http/errors.ts';
import { findPage } from '../../shared/content/tree.ts';
import type { LoadedRevision } from '../../shared/content/revisions.ts';
import type { ContentContext } from '../../shared/presenters/revision.ts';
import { loadSpaceContent } from '../../shared/content/source.ts';
import { loadChangeRequestContent } from '../../shared/content/change-request-content.ts';
import { pageMetaLinks } from '../../shared/content/links/meta-links.ts';
import * as op from './operations.ts';

/** The meta links of a page of loaded content; 404 when the content has no such page. */
async function metaLinksOf(c: Context<AppEnv>, content: LoadedRevision & ContentContext, pageId: string) {
  if (!findPage(content.manifest, pageId)) throw notFound(`No page ${pageId} in revision ${content.revision.id}`);
  return c.json(await pageMetaLinks(c.var.scope, content.org, content.space.id, pageId));
}

/**
 * Page meta links (beyond the spec; the public interface's listSpacePageMetaLinks,
 * listChangeRequestPageMetaLinks and listRevisionPageMetaLinks) of the primary content, a
 * change request's and a revision's: see shared/content/links/meta-links.ts.
 */
export const pageMetaLinksRoutes = operationRoutes();

route(pageMetaLinksRoutes, op.listSpacePageMetaLinks, async (c) => {
  const { spaceId, pageId } = c.req.valid('param');
  return metaLinksOf(c, await loadSpaceContent(c.var.scope, spaceId), pageId);
});

route(pageMetaLinksRoutes, op.listChangeRequestPageMetaLinks, async (c) => {
  const { spaceId, changeRequestId, pageId } = c.req.valid('param');
  return metaLinksOf(c, await loadChangeRequestContent(c.var.scope, spaceId, changeRequestId), pageId);
});

route(pageMetaLinksRoutes, op.listRevisionPageMetaLinks, async (c) => {
  const { spaceId, revisionId, pageId } = c.req.valid('param');
  return metaLinksOf(c, await loadSpaceContent(c.var.scope, spaceId, revisionId), pageId);
});
