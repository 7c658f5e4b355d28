import { nowIso } from '../../clock.ts';
import { transact } from '../../db/writes.ts';
import type { UserItem } from '../../db/entities/user.ts';
import { organizationEntity } from '../../db/entities/organization.ts';
import { memberEntity, type MemberItem } from '../../db/entities/member.ts';
import type { Role } from '../../http/schemas.ts';
import { conflict } from '../../http/errors.ts';

export function newMember(orgId: string, user: UserItem, role: Role | null): MemberItem {
  return {
    orgId,
    userId: user.id,
    role,
    joinedAt: nowIso(),
    sso: false,
    disabled: false,
    teams: 0,
    searchText: `${user.displayName} ${user.email}`.toLowerCase(),
  };
}

/** Adds a user to an organization with a role; 409 when already a member. */
export async function addMember(orgId: string, user: UserItem, role: Role | null): Promise<MemberItem> {
  const member = newMember(orgId, user, role);
  await transact([
    organizationEntity.check({ orgId }, (w) => w.exists()),
    memberEntity.create({ orgId, userId: user.id }, member),
  ], (index) => conflict(index === 0 ? `No organization ${orgId}` : `User ${user.id} is already a member of ${orgId}`));
  return member;
}
