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
export const memberEntity = defineEntity<MemberItem, { orgId: string; userId: string }>({
  type: 'member',
  key: ({ orgId, userId }) => ({ pk: `ORG#${orgId}`, sk: `MEMBER#${userId}` }),
  indexes: (m) => ({
    gsi1: { pk: `USER#${m.userId}#ORGS`, sk: `${m.joinedAt}#${m.orgId}` },
    gsi2: { pk: `ORG#${m.orgId}#MEMBERS`, sk: `${m.joinedAt}#${m.userId}` },
    gsi3: m.lastSeenAt ? { pk: `ORG#${m.orgId}#MEMBERS_SEEN`, sk: `${m.lastSeenAt}#${m.userId}` } : null,
  }),
});
