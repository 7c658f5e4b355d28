import { teamEntity, teamMemberEntity, type TeamItem, type TeamMemberItem } from '../../db/entities/team.ts';
import { ApiError } from '../../http/errors.ts';

/** What the team commands share: the consistent read, memberships, transaction sizes, conflict errors. */

/** Pairs (membership item + member counter) per transaction, leaving room for the team item. */
export const PAIRS_PER_TRANSACTION = 49;

export const teamChanged = () => new ApiError(409, 'The team was changed by another request; retry');

export async function readTeam(orgId: string, teamId: string): Promise<TeamItem | undefined> {
  return teamEntity.get({ orgId, teamId }, { consistent: true });
}

export async function teamMemberships(orgId: string, teamId: string): Promise<TeamMemberItem[]> {
  return teamMemberEntity.query.byTeam({ orgId, teamId }).all();
}
