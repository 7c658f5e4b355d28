import { defineEntity } from '../entity.ts';

export interface TeamItem {
  id: string;
  orgId: string;
  title: string;
  createdAt: string;
  updatedAt: string;
  /** Member count, kept by the transactions that add and remove team members. */
  members: number;
}

/** ORG#<org> / TEAM#<team>: an org's teams are one Query on its partition. */
export const teamEntity = defineEntity<TeamItem, { orgId: string; teamId: string }>({
  type: 'team',
  key: ({ orgId, teamId }) => ({ pk: `ORG#${orgId}`, sk: `TEAM#${teamId}` }),
});

export interface TeamMemberItem {
  orgId: string;
  teamId: string;
  userId: string;
  role: 'owner' | 'member';
  addedAt: string;
}

/** ORG#<org> / TEAMMEMBER#<team>#<user>; a member's teams via gsi1 ORG#<org>#USER#<user>#TEAMS. */
export const teamMemberEntity = defineEntity<TeamMemberItem, { orgId: string; teamId: string; userId: string }>({
  type: 'team-member',
  key: ({ orgId, teamId, userId }) => ({ pk: `ORG#${orgId}`, sk: `TEAMMEMBER#${teamId}#${userId}` }),
  indexes: (m) => ({ gsi1: { pk: `ORG#${m.orgId}#USER#${m.userId}#TEAMS`, sk: `TEAM#${m.teamId}` } }),
});
