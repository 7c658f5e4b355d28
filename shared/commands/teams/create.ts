import { nowIso } from '../../clock.ts';
import { randomId } from '../../ids.ts';
import { transact, type Write } from '../../db/writes.ts';
import { memberEntity } from '../../db/entities/member.ts';
import { teamEntity, teamMemberEntity, type TeamItem, type TeamMemberItem, type TeamMemberRole } from '../../db/entities/team.ts';
import { chunked, Rejection, retryOnConflict } from '../retry.ts';
import { PAIRS_PER_TRANSACTION, teamChanged } from './store.ts';

/**
 * Creates a team with its memberships. Up to 49 members: one transaction holding the
 * team item, the membership items and `ADD teams 1` on each member (conditional on the
 * member existing, so a member removed meanwhile fails the request with 400 and nothing
 * is written). Larger teams: the first transaction creates the team with the first 49,
 * each further one adds 49 and `ADD members` on the team.
 * Transaction conflicts on a busy member item are retried (ADD keeps every increment).
 */
export async function createTeam(
  orgId: string,
  title: string,
  members: { userId: string; role: TeamMemberRole }[],
): Promise<TeamItem> {
  const now = nowIso();
  const team: TeamItem = {
    id: randomId(), orgId, title, titleLower: title.toLowerCase(), createdAt: now, updatedAt: now, members: members.length,
  };
  const chunks = chunked(members, PAIRS_PER_TRANSACTION);
  if (chunks.length === 0) chunks.push([]);
  for (const [index, chunk] of chunks.entries()) {
    const teamWrite: Write<unknown> = index === 0
      ? teamEntity.create({ orgId, teamId: team.id }, { ...team, members: chunk.length })
      : teamEntity.add({ orgId, teamId: team.id }, { members: chunk.length });
    const joins = chunk.flatMap((m) => joinTeam(team, m.userId, m.role, now));
    await retryOnConflict(() => transact([teamWrite, ...joins], (failed) => {
      if (failed === 0) return teamChanged();
      const userId = chunk[Math.floor((failed - 1) / 2)]!.userId;
      return new Rejection(400, `members: ${userId} is not a member of this organization`);
    }));
  }
  return team;
}

function joinTeam(team: TeamItem, userId: string, role: TeamMemberRole, now: string): Write<unknown>[] {
  const membership: TeamMemberItem = { orgId: team.orgId, teamId: team.id, userId, role, addedAt: now, titleLower: team.titleLower };
  return [
    teamMemberEntity.create({ orgId: team.orgId, teamId: team.id, userId }, membership),
    memberEntity.add({ orgId: team.orgId, userId }, { teams: 1 }),
  ];
}
