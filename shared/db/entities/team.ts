/**
 * Teams and their memberships, in the organization's partition.
 *
 * Changed by the teams/members work (spec 4.13, 4.14): both items now carry `titleLower`, a
 * lower-cased copy of the team title, so the `title` filters (teams list, a member's teams)
 * are FilterExpressions on the Query. Team PATCH rewrites the copy on every membership.
 * Keys and indexes are unchanged.
 */
import { defineEntity } from '../entity.ts';

export type TeamMemberRole = 'owner' | 'member';

export interface TeamItem {
  id: string;
  orgId: string;
  title: string;
  /** Lower-cased title, for the case-insensitive `title` filter. */
  titleLower: string;
  createdAt: string;
  updatedAt: string;
  /** Member count, kept by the transactions that add and remove team members. */
  members: number;
}

/** ORG#<org> / TEAM#<team>: an org's teams are one Query on its partition (sk begins_with TEAM#). */
export const teamEntity = defineEntity<TeamItem>()({
  type: 'team',
  key: ({ orgId, teamId }: { orgId: string; teamId: string }) => ({ pk: `ORG#${orgId}`, sk: `TEAM#${teamId}` }),
  partitions: {
    inOrg: (a: { orgId: string }) => ({ pk: `ORG#${a.orgId}`, prefix: 'TEAM#' }),
  },
});

export interface TeamMemberItem {
  orgId: string;
  teamId: string;
  userId: string;
  role: TeamMemberRole;
  addedAt: string;
  /** The team's lower-cased title (copy), for the `title` filter of a member's teams. */
  titleLower: string;
}

/**
 * ORG#<org> / TEAMMEMBER#<team>#<user>: a team's members are one Query (sk begins_with
 * TEAMMEMBER#<team>#); a member's teams via gsi1 ORG#<org>#USER#<user>#TEAMS (by team id).
 */
export const teamMemberEntity = defineEntity<TeamMemberItem>()({
  type: 'team-member',
  key: ({ orgId, teamId, userId }: { orgId: string; teamId: string; userId: string }) => ({ pk: `ORG#${orgId}`, sk: `TEAMMEMBER#${teamId}#${userId}` }),
  indexes: {
    byMember: { index: 'gsi1', pk: (a: { orgId: string; userId: string }) => memberTeamsPartition(a.orgId, a.userId), sk: (m) => `TEAM#${m.teamId}` },
  },
  partitions: {
    byTeam: (a: { orgId: string; teamId: string }) => ({ pk: `ORG#${a.orgId}`, prefix: teamMembersPrefix(a.teamId) }),
  },
});

/** gsi1 partition of a member's team memberships. */
export function memberTeamsPartition(orgId: string, userId: string): string {
  return `ORG#${orgId}#USER#${userId}#TEAMS`;
}

/** Sort key prefix of a team's memberships in the org partition. */
export function teamMembersPrefix(teamId: string): string {
  return `TEAMMEMBER#${teamId}#`;
}
