import { pageOfArray } from '../../http/array-page.ts';
import { memberEntity, type MemberItem } from '../entities/member.ts';
import type { Where } from '../conditions.ts';
import type { Role } from '../../http/schemas.ts';

export type MemberSort = 'joinedAt' | 'lastSeenAt' | 'name';

export interface MemberListQuery {
  page?: string;
  limit: number;
  order: 'asc' | 'desc';
  /** A role, or 'guest' for members whose role is null. */
  role?: Role | 'guest';
  /** Case-insensitive "contains" on display name and email (the member's `searchText`). */
  search?: string;
  sort: MemberSort;
}

/**
 * One page of an organization's members (spec 4.13). Filters are FilterExpressions on
 * the Query (queryPage refills a page the filter thinned):
 * - sort joinedAt: gsi2 ORG#<org>#MEMBERS, sorted by joinedAt;
 * - sort lastSeenAt: gsi3 ORG#<org>#MEMBERS_SEEN, sparse, so only members who pinged;
 * - sort name: no index is sorted by name, so this reads every (filtered) member of the
 *   org with queryAll and sorts in memory by `searchText` (lower-cased "displayName
 *   email"), with an offset cursor. Fine for organizations of a few thousand members;
 *   a name-sorted index would be the next step.
 */
export async function listMemberPage(orgId: string, query: MemberListQuery): Promise<{ members: MemberItem[]; next?: string }> {
  const filter = memberFilter(query);
  const forward = query.order === 'asc';
  if (query.sort === 'name') {
    const all = await memberEntity.query.byOrg({ orgId }, { where: filter }).all();
    all.sort((a, b) => compare(a.searchText, b.searchText) || compare(a.userId, b.userId));
    if (!forward) all.reverse();
    const page = pageOfArray(all, { limit: query.limit, cursor: query.page, scope: `members-by-name:${orgId}` });
    return { members: page.items, ...(page.next ? { next: page.next } : {}) };
  }
  const seen = query.sort === 'lastSeenAt';
  const byIndex = seen ? memberEntity.query.bySeen : memberEntity.query.byOrg;
  const page = await byIndex({ orgId }, { forward, where: filter }).page({ limit: query.limit, cursor: query.page });
  return { members: page.items, ...(page.next ? { next: page.next } : {}) };
}

function memberFilter(query: MemberListQuery) {
  const search = query.search?.trim().toLowerCase();
  if (!query.role && !search) return undefined;
  return (w: Where<MemberItem>) => w.and(
    query.role === 'guest' ? w.isNull('role') : query.role && w.eq('role', query.role),
    search && w.contains('searchText', search),
  );
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
