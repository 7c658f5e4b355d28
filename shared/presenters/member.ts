import type { MemberItem } from '../db/entities/member.ts';
import type { UserItem } from '../db/entities/user.ts';
import { absentUser, presentUser } from './user.ts';
import type { MemberOutput } from './schemas/member.ts';

/**
 * Member (spec 2.4, plus `sites` of the official interface). `id` is the user id.
 * `spaces` is computed by the caller (shared/presenters/read/member-spaces.ts): the number of
 * the organization's spaces the member can read. `sites` is 0 (docs sites carry no
 * per-member access yet). `lastSeenAt` is absent until the member's first ping.
 */
export function presentMember(member: MemberItem, user: UserItem | undefined, counts: { spaces: number }): MemberOutput {
  return {
    object: 'member' as const,
    id: member.userId,
    role: member.role,
    user: presentUser(user ?? absentUser(member.userId, member.joinedAt)),
    disabled: member.disabled,
    joinedAt: member.joinedAt,
    ...(member.lastSeenAt ? { lastSeenAt: member.lastSeenAt } : {}),
    sso: member.sso,
    spaces: counts.spaces,
    teams: Math.max(0, member.teams ?? 0),
    sites: 0,
  };
}

