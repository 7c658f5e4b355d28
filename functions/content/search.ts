import { createHash } from 'node:crypto';
import { operationRoutes, route } from '../../shared/http/route.ts';
import * as op from './operations.ts';
import { itemsNeeded, pageOfArray } from '../../shared/http/array-page.ts';
import { presentList } from '../../shared/presenters/list.ts';
import { loadSpaceContent } from '../../shared/content/source.ts';
import { presentRankedPages, rankRevision } from '../../shared/content/search/space-search.ts';

/** Cursor scope of a search: what was searched (the revision's manifest) and how. */
export function searchScope(kind: string, ...parts: string[]): string {
  return `${kind}:${createHash('sha256').update(parts.join('\n')).digest('base64url').slice(0, 22)}`;
}

/**
 * GET /spaces/{spaceId}/search (searchSpaceContent): ranked full-text search of the space's
 * primary content through the revision's stored index (shared/content/search).
 */
export const searchRoutes = operationRoutes();

route(searchRoutes, op.searchSpaceContent, async (c) => {
  const { spaceId } = c.req.valid('param');
  const { query, page, limit } = c.req.valid('query');
  const content = await loadSpaceContent(c.var.scope, spaceId);
  const manifestHash = content.revision.manifest;
  const paging = { limit, cursor: page, scope: searchScope('search', manifestHash, query) };
  // Only the pages up to the requested page of results are ranked, and only those presented.
  const ranked = await rankRevision({ manifestHash, manifest: content.manifest }, query, { limit: itemsNeeded(paging) });
  const one = pageOfArray(ranked, paging);
  return c.json(presentList(presentRankedPages(spaceId, one.items), one.next));
});
