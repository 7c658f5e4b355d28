import { defineEntity } from '../entity.ts';
import type { Role } from '../../http/schemas.ts';

export interface MemberItem {
  orgId: string;
  userId: string;
  role: Role | null;
  joinedAt: string;
  lastSeenAt?: string;
  sso: boolean;
  disabled: boolean;
  /** Teams the member belongs to (kept by the same transactions that add and remove team members). */
  teams: number;
  /** Lower-cased "displayName email" copied from the user, for the `search` filter. */
  searchText: string;
}

/**
 * ORG#<org> / MEMBER#<user>.
 * gsi1: the user's organizations (USER#<user>#ORGS, by joinedAt).
 * gsi2: the org's members by joinedAt. gsi3 (sparse): members by lastSeenAt, only once seen.
 */
export const memberEntity = defineEntity<MemberItem>()({
  type: 'member',
  key: ({ orgId, userId }: { orgId: string; userId: string }) => ({ pk: `ORG#${orgId}`, sk: `MEMBER#${userId}` }),
  indexes: {
    byUser: { index: 'gsi1', pk: (a: { userId: string }) => `USER#${a.userId}#ORGS`, sk: (m) => `${m.joinedAt}#${m.orgId}` },
    byOrg: { index: 'gsi2', pk: (a: { orgId: string }) => `ORG#${a.orgId}#MEMBERS`, sk: (m) => `${m.joinedAt}#${m.userId}` },
    bySeen: {
      index: 'gsi3', pk: (a: { orgId: string }) => `ORG#${a.orgId}#MEMBERS_SEEN`, sk: (m) => `${m.lastSeenAt}#${m.userId}`, when: (m) => Boolean(m.lastSeenAt),
    },
  },
});
