import type { Context } from 'hono';
import type { AppEnv } from '../../shared/http/env.ts';
import { route, type OperationRoutes } from '../../shared/http/route.ts';
import { notFound } from '../../shared/http/errors.ts';
import { pageOfArray } from '../../shared/http/array-page.ts';
import { presentList } from '../../shared/presenters/list.ts';
import { findPage } from '../../shared/content/tree.ts';
import type { LoadedRevision } from '../../shared/content/revisions.ts';
import type { ContentContext } from '../../shared/presenters/revision.ts';
import { loadSpaceContent } from '../../shared/content/source.ts';
import { loadChangeRequestContent } from '../../shared/content/change-request-content.ts';
import { pageBacklinks, revisionInSpace, revisionLinks } from '../../shared/content/links/responses.ts';
import * as op from './operations.ts';

async function backlinksList(c: Context<AppEnv>, content: LoadedRevision & ContentContext, pageId: string, query: { page?: string; limit: number }) {
  if (!findPage(content.manifest, pageId)) throw notFound(`No page ${pageId} in revision ${content.revision.id}`);
  const revision = revisionInSpace({ ...content, space: { id: content.space.id, orgId: content.space.orgId } });
  const items = pageBacklinks(revision, await revisionLinks(revision), pageId);
  const one = pageOfArray(items, { limit: query.limit, cursor: query.page, scope: `page-backlinks:${revision.manifestHash}:${pageId}` });
  return c.json(presentList(one.items, one.next));
}

/**
 * Page backlinks (beyond the spec; the public GitBook API's listSpacePageBacklinks and
 * listChangeRequestPageBacklinks): the places of other pages that link to a page, from the
 * revision's link index (shared/content/links), shaped like file backlinks.
 */
export function mountPageBacklinks(app: OperationRoutes): void {
  route(app, op.listSpacePageBacklinks, async (c) => {
    const { spaceId, pageId } = c.req.valid('param');
    return backlinksList(c, await loadSpaceContent(c, spaceId), pageId, c.req.valid('query'));
  });

  route(app, op.listChangeRequestPageBacklinks, async (c) => {
    const { spaceId, changeRequestId, pageId } = c.req.valid('param');
    return backlinksList(c, await loadChangeRequestContent(c, spaceId, changeRequestId), pageId, c.req.valid('query'));
  });
}
