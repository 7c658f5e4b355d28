import { MAX_PAGE_SIZE } from '../../http/schemas.ts';
import type { OrganizationItem } from '../../db/entities/organization.ts';
import { spaceEntity } from '../../db/entities/space.ts';
import { presentReadable } from '../../presenters/read/readable.ts';
import { isExpired } from '../../policies/access.ts';
import { searchSpaces, type SearchSpaceResult } from './spaces-search.ts';
import type { RequestScope } from '../../http/scope.ts';

export { MAX_PAGES_PER_SPACE, type SearchSpaceResult } from './spaces-search.ts';

/** Spaces searched per organization search: the first ones the caller can read, oldest first. */
export const MAX_SPACES_PER_ORG_SEARCH = 50;

/**
 * Organization search: the primary content of the organization's spaces the caller can
 * read (Query gsi1 `ORG#<org>#SPACES`, at most one page of 1000 records, then the same
 * permission filter as the space list), bounded to MAX_SPACES_PER_ORG_SEARCH spaces, searched
 * and ranked by searchSpaces.
 */
export async function searchOrganization(request: RequestScope, org: OrganizationItem, query: string): Promise<SearchSpaceResult[]> {
  const listed = await spaceEntity.query.byOrg({ orgId: org.id }).page({ limit: MAX_PAGE_SIZE });
  const live = listed.items.filter((s) => !s.deletedAt && !isExpired(s) && s.revision);
  const readable = (await presentReadable(request, org, live, (space) => space)).slice(0, MAX_SPACES_PER_ORG_SEARCH);
  return searchSpaces(request, readable, query);
}
