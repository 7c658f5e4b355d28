import { pageOfArray } from '../http/array-page.ts';
import { queryAll, queryPage, type QueryOptions } from '../db/operations.ts';
import { memberEntity, type MemberItem } from '../db/entities/member.ts';
import type { Role } from '../http/schemas.ts';

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

export function membersPartition(orgId: string): string {
  return `ORG#${orgId}#MEMBERS`;
}

export function seenMembersPartition(orgId: string): string {
  return `ORG#${orgId}#MEMBERS_SEEN`;
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
    const records = await queryAll({ index: 'gsi2', partition: membersPartition(orgId), filter });
    const all = records.map((r) => memberEntity.fromRecord(r));
    all.sort((a, b) => compare(a.searchText, b.searchText) || compare(a.userId, b.userId));
    if (!forward) all.reverse();
    const page = pageOfArray(all, { limit: query.limit, cursor: query.page, scope: `members-by-name:${orgId}` });
    return { members: page.items, ...(page.next ? { next: page.next } : {}) };
  }
  const seen = query.sort === 'lastSeenAt';
  const page = await queryPage({
    index: seen ? 'gsi3' : 'gsi2',
    partition: seen ? seenMembersPartition(orgId) : membersPartition(orgId),
    forward,
    limit: query.limit,
    cursor: query.page,
    filter,
  });
  return { members: page.records.map((r) => memberEntity.fromRecord(r)), ...(page.next ? { next: page.next } : {}) };
}

function memberFilter(query: MemberListQuery): QueryOptions['filter'] {
  const parts: string[] = [];
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  if (query.role === 'guest') {
    parts.push('attribute_type(#role, :nullType)');
    names['#role'] = 'role';
    values[':nullType'] = 'NULL';
  } else if (query.role) {
    parts.push('#role = :role');
    names['#role'] = 'role';
    values[':role'] = query.role;
  }
  const search = query.search?.trim().toLowerCase();
  if (search) {
    parts.push('contains(#searchText, :search)');
    names['#searchText'] = 'searchText';
    values[':search'] = search;
  }
  return parts.length ? { expression: parts.join(' AND '), names, values } : undefined;
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
