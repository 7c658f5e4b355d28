import { createHash } from 'node:crypto';
import { operationRoutes, route } from '../../shared/http/route.ts';
import { pageOfArray } from '../../shared/http/array-page.ts';
import { presentList } from '../../shared/presenters/list.ts';
import { spaceEntity, type SpaceItem } from '../../shared/db/entities/space.ts';
import { loadSiteIn } from '../../shared/presenters/read/site-tree.ts';
import { presentReadable } from '../../shared/presenters/read/readable.ts';
import { showsSpace } from '../../shared/commands/sites/tree.ts';
import { siteSpacesInScope } from '../../shared/content/search/site-scope.ts';
import { searchSpaces } from '../../shared/content/search/spaces-search.ts';
import type { LocatedPage } from '../../shared/content/tree.ts';
import * as op from './operations.ts';
import { siteSearchScope } from './search-schemas.ts';

/** Spaces one site search covers at most (the first ones of the scope, in reading order). */
export const MAX_SPACES_PER_SITE_SEARCH = 50;

/**
 * What a site's visitors can find: documents shown in the navigation (the reader's
 * readablePages: not hidden, no hidden ancestor) that are not `noIndex` ("not indexable
 * in the search and ask features", as the public interface says), nor under such a page.
 */
const searchable = ({ page, ancestors }: LocatedPage) =>
  page.type === 'document' && !page.hidden && !page.noIndex && !ancestors.some((a) => a.hidden || a.noIndex);

/**
 * POST /orgs/{organizationId}/sites/{siteId}/search (searchSiteContent, beyond the spec): the
 * primary content of the site spaces its scope selects, through the same per-revision
 * indexes as the space and organization searches. Readers of the site (org members with a
 * role) search the spaces among those they can read. Items are spaces with hits, best first.
 */
export const siteSearchRoutes = operationRoutes();

route(siteSearchRoutes, op.searchSiteContent, async (c) => {
  const { organizationId, siteId } = c.req.valid('param');
  const { page, limit } = c.req.valid('query');
  const body = c.req.valid('json');
  const { scope, field } = siteSearchScope(body);
  const { tree, org } = await loadSiteIn(c.var.scope, organizationId, siteId, 'read');

  const loader = c.get('loader');
  await loader.load(tree.siteSpaces.map((s) => spaceEntity.key({ spaceId: s.spaceId })));
  const spaceOf = (spaceId: string) => {
    const record = loader.peek(spaceEntity.key({ spaceId }));
    return record ? (spaceEntity.fromRecord(record) as SpaceItem) : undefined;
  };
  const selected = siteSpacesInScope(tree, scope, field, (s) => spaceOf(s.spaceId)?.language);
  const spaces = [...new Map(selected.map((s) => [s.spaceId, spaceOf(s.spaceId)])).values()]
    .filter((s): s is SpaceItem => showsSpace(tree.site, s));
  const readable = (await presentReadable(c.var.scope, org, spaces, (space) => space)).slice(0, MAX_SPACES_PER_SITE_SEARCH);

  const results = await searchSpaces(c.var.scope, readable, body.query, { searchable });
  // A cursor belongs to the search it came from: same site, query and scope.
  const cursorScope = `sitesearch:${createHash('sha256').update([siteId, body.query, JSON.stringify(scope)].join('\n')).digest('base64url').slice(0, 22)}`;
  const one = pageOfArray(results, { limit, cursor: page, scope: cursorScope });
  return c.json(presentList(one.items, one.next));
});
