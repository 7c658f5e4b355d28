import { transact, type Write } from '../../db/writes.ts';
import { memberEntity } from '../../db/entities/member.ts';
import { teamEntity, teamMemberEntity, type TeamMemberItem } from '../../db/entities/team.ts';
import { chunked, retryOnConflict } from '../retry.ts';
import { PAIRS_PER_TRANSACTION, teamChanged, readTeam, teamMemberships } from './store.ts';

/**
 * Deletes a team, its memberships and one from each member's `teams`, in one transaction
 * for teams of up to 49 members (chunks beyond, the team item last, on condition that its
 * count matches what goes with it). Returns false when there was no such team.
 */
export async function deleteTeam(orgId: string, teamId: string): Promise<boolean> {
  return retryOnConflict(async () => {
    const team = await readTeam(orgId, teamId);
    if (!team) return false;
    const chunks = chunked(await teamMemberships(orgId, teamId), PAIRS_PER_TRANSACTION);
    const last = chunks.pop() ?? [];
    for (const chunk of chunks) {
      await transact([
        ...chunk.flatMap(leaveTeamWrites),
        teamEntity.add({ orgId, teamId }, { members: -chunk.length }),
      ], teamChanged);
    }
    await transact([
      ...last.flatMap(leaveTeamWrites),
      teamEntity.delete({ orgId, teamId }, (w) => w.and(w.exists(), w.eq('members', last.length))),
    ], teamChanged);
    return true;
  });
}

function leaveTeamWrites(tm: TeamMemberItem): Write<unknown>[] {
  return [
    teamMemberEntity.delete({ orgId: tm.orgId, teamId: tm.teamId, userId: tm.userId }, (w) => w.exists()),
    memberEntity.add({ orgId: tm.orgId, userId: tm.userId }, { teams: -1 }),
  ];
}
