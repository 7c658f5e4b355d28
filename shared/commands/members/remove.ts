import { transact, type Write } from '../../db/writes.ts';
import { memberEntity, type MemberItem } from '../../db/entities/member.ts';
import { teamEntity, teamMemberEntity, type TeamMemberItem } from '../../db/entities/team.ts';
import { chunked, retryOnConflict } from '../retry.ts';
import { changedConcurrently, readMember, anotherAdminCheck, isActiveAdmin, roleIs } from './store.ts';

/** Team memberships and member deletion per transaction: 49 pairs + 2 items <= 100. */
const PAIRS_PER_TRANSACTION = 49;

/**
 * Removes a member and their team memberships (team counts decremented) atomically when
 * they belong to at most 49 teams, in chunked transactions beyond that (each chunk also
 * decrements the member's `teams`, so a partial run leaves consistent counters and a
 * retry finishes it). The member item goes last, on condition that its `teams` counter
 * matches the memberships removed with it: a team that added the member concurrently
 * makes the transaction fail and the work restart from fresh reads.
 * Removing the last active admin is refused (409). Returns false when not a member.
 */
export async function removeMember(orgId: string, userId: string, cached?: MemberItem): Promise<boolean> {
  return retryOnConflict(async (attempt) => {
    const member = attempt === 0 && cached ? cached : await readMember(orgId, userId);
    if (!member) return false;
    const guard = isActiveAdmin(member) ? [await anotherAdminCheck(orgId, userId)] : [];
    const memberships = await teamMemberEntity.query.byMember({ orgId, userId }).all();
    const chunks = chunked(memberships, PAIRS_PER_TRANSACTION);
    const last = chunks.pop() ?? [];
    for (const chunk of chunks) {
      await transact([
        ...chunk.flatMap(leaveTeam),
        memberEntity.add({ orgId, userId }, { teams: -chunk.length }),
      ], changedConcurrently);
    }
    await transact([
      ...last.flatMap(leaveTeam),
      memberEntity.delete({ orgId, userId }, (w) => w.and(
        w.exists(), w.or(w.eq('teams', last.length), w.lacks('teams')), roleIs(member.role)(w),
      )),
      ...guard,
    ], changedConcurrently);
    return true;
  });
}

/** Delete a team membership and decrement the team's member count. */
function leaveTeam(tm: TeamMemberItem): Write<unknown>[] {
  return [
    teamMemberEntity.delete({ orgId: tm.orgId, teamId: tm.teamId, userId: tm.userId }, (w) => w.exists()),
    teamEntity.add({ orgId: tm.orgId, teamId: tm.teamId }, { members: -1 }),
  ];
}
