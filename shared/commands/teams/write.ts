import { nowIso } from '../../clock.ts';
import { randomId } from '../../ids.ts';
import { transact, type Write } from '../../db/writes.ts';
import { memberEntity } from '../../db/entities/member.ts';
import {
  teamEntity, teamMemberEntity,
  type TeamItem, type TeamMemberItem, type TeamMemberRole,
} from '../../db/entities/team.ts';
import { ApiError } from '../../http/errors.ts';
import { chunked, Rejection, retryOnConflict } from '../retry.ts';


/** Pairs (membership item + member counter) per transaction, leaving room for the team item. */
const PAIRS_PER_TRANSACTION = 49;

const teamChanged = () => new ApiError(409, 'The team was changed by another request; retry');

export async function readTeam(orgId: string, teamId: string): Promise<TeamItem | undefined> {
  return teamEntity.get({ orgId, teamId }, { consistent: true });
}

async function teamMemberships(orgId: string, teamId: string): Promise<TeamMemberItem[]> {
  return teamMemberEntity.query.byTeam({ orgId, teamId }).all();
}

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

/**
 * Renames a team and rewrites the lower-cased title copy on its memberships (used by the
 * member's-teams `title` filter): one transaction up to 99 members, then chunks of 100.
 * The team update is conditional on `updatedAt`, so concurrent renames each apply whole.
 */
export async function renameTeam(orgId: string, teamId: string, title: string, cached?: TeamItem): Promise<TeamItem> {
  return retryOnConflict(async (attempt) => {
    const team = attempt === 0 && cached ? cached : await readTeam(orgId, teamId);
    if (!team) throw new Rejection(404, `No team found with id ${teamId}`);
    const renamed: TeamItem = { ...team, title, titleLower: title.toLowerCase(), updatedAt: nowIso() };
    const copies: Write<unknown>[] = (await teamMemberships(orgId, teamId)).map((tm) =>
      teamMemberEntity.update({ orgId, teamId, userId: tm.userId }, { set: { titleLower: renamed.titleLower } }));
    const teamWrite = teamEntity.update({ orgId, teamId }, {
      set: { title, titleLower: renamed.titleLower, updatedAt: renamed.updatedAt },
      if: (w) => w.eq('updatedAt', team.updatedAt),
    });
    const [first, ...rest] = [[teamWrite, ...copies.slice(0, 99)], ...chunked(copies.slice(99), 100)];
    await transact(first!, teamChanged);
    for (const chunk of rest) await transact(chunk, teamChanged);
    return renamed;
  });
}
