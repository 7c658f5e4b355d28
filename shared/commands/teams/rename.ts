import { nowIso } from '../../clock.ts';
import { transact, type Write } from '../../db/writes.ts';
import { teamEntity, teamMemberEntity, type TeamItem } from '../../db/entities/team.ts';
import { chunked, Rejection, retryOnConflict } from '../retry.ts';
import { teamChanged, readTeam, teamMemberships } from './store.ts';

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
