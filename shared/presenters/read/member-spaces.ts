import type { RecordLoader } from '../../http/loader.ts';
import type { Role } from '../../http/schemas.ts';
import type { Key } from '../../db/table.ts';
import { spaceEntity, type SpaceItem } from '../../db/entities/space.ts';
import { collectionEntity } from '../../db/entities/collection.ts';
import type { MemberItem } from '../../db/entities/member.ts';
import type { OrganizationItem } from '../../db/entities/organization.ts';
import { effectiveRole, type LevelHolder } from '../../policies/effective-role.ts';
import { isExpired } from '../../policies/access.ts';
import { atLeast } from '../../policies/roles.ts';

/**
 * The spaces a member can read. One definition serves the member's `spaces` count and
 * GET /orgs/{org}/members/{user}/spaces, so they agree: a space counts when the member's
 * effective role on it (shared/policies/effective-role.ts) is at least `read`.
 *
 * Cost: the count needs every live space of the organization (one Query of gsi1
 * ORG#<org>#SPACES, pages of 1000) and their ancestor collections (one BatchGet, shared
 * with whatever else the request loads). A members list loads them once per request and
 * counts every member of the page in memory.
 */

/** Every live space of the organization, oldest first. */
export async function queryOrgSpaces(orgId: string): Promise<SpaceItem[]> {
  const spaces = await spaceEntity.query.byOrg({ orgId }).all();
  return spaces.filter((s) => !s.deletedAt && !isExpired(s));
}

/** Keys of the ancestor collections of the given spaces (load them before memberSpaceRole). */
export function ancestorKeys(spaces: SpaceItem[]): Key[] {
  return [...new Set(spaces.flatMap((s) => s.ancestors))].map((collectionId) => collectionEntity.key({ collectionId }));
}

/** The member's effective role on a space; its ancestors must be in the loader already. */
export function memberSpaceRole(member: MemberItem, org: OrganizationItem, space: SpaceItem, loader: RecordLoader): Role | null {
  const parents: LevelHolder[] = [];
  for (const collectionId of [...space.ancestors].reverse()) {
    const record = loader.peek(collectionEntity.key({ collectionId }));
    if (record) parents.push(collectionEntity.fromRecord(record));
  }
  return effectiveRole(member, org, [space, ...parents]);
}

export function readableSpaceCount(member: MemberItem, org: OrganizationItem, spaces: SpaceItem[], loader: RecordLoader): number {
  let count = 0;
  for (const space of spaces) if (atLeast(memberSpaceRole(member, org, space, loader), 'read')) count++;
  return count;
}
