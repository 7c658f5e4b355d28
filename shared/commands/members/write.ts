import { nowIso } from '../../clock.ts';
import { run, transact, type Write } from '../../db/writes.ts';
import { ConditionFailed, NotFound } from '../../db/errors.ts';
import type { Where } from '../../db/conditions.ts';
import { memberEntity, type MemberItem } from '../../db/entities/member.ts';
import { teamEntity, teamMemberEntity, type TeamMemberItem } from '../../db/entities/team.ts';
import { ApiError } from '../../http/errors.ts';
import type { Role } from '../../http/schemas.ts';
import { chunked, Rejection, retryOnConflict } from '../retry.ts';


export const LAST_ADMIN = 'The last admin of an organization cannot be removed or demoted; make another member admin first';

const changedConcurrently = () => new ApiError(409, 'The member was changed by another request; retry');

export async function readMember(orgId: string, userId: string): Promise<MemberItem | undefined> {
  return memberEntity.get({ orgId, userId }, { consistent: true });
}

/**
 * The last active admin must stay: finds another active admin with a filtered Query
 * (Limit-refilled by queryPage) and returns a ConditionCheck that it still is one when
 * the transaction commits. Two admins demoting each other at once cannot both succeed:
 * each transaction checks the other's role, and DynamoDB serializes them.
 */
async function anotherAdminCheck(orgId: string, userId: string): Promise<Write<unknown>> {
  const page = await memberEntity.query.byOrg({ orgId }, {
    where: (w) => w.and(activeAdmin(w), w.ne('userId', userId)),
  }).page({ limit: 1 });
  const other = page.items[0];
  if (!other) throw new Rejection(409, LAST_ADMIN);
  return memberEntity.check({ orgId, userId: other.userId }, activeAdmin);
}

const activeAdmin = (w: Where<MemberItem>) => w.and(w.eq('role', 'admin'), w.eq('disabled', false));

const isActiveAdmin = (m: MemberItem) => m.role === 'admin' && !m.disabled;

/** Condition that the member's role is still `role` (null needs attribute_type). */
const roleIs = (role: Role | null) => (w: Where<MemberItem>) => (role === null ? w.isNull('role') : w.eq('role', role));

/**
 * PATCH member role. Demoting an active admin needs another active admin (409 otherwise).
 * `cached` is the record the request already read; retries read again, consistently.
 */
export async function updateMemberRole(orgId: string, userId: string, role: Role | null, cached?: MemberItem): Promise<MemberItem> {
  return retryOnConflict(async (attempt) => {
    const current = attempt === 0 && cached ? cached : await readMember(orgId, userId);
    if (!current) throw new Rejection(404, `No member found with id ${userId}`);
    const items: Write<unknown>[] = [memberEntity.update({ orgId, userId }, { set: { role }, if: roleIs(current.role) })];
    if (isActiveAdmin(current) && role !== 'admin') items.push(await anotherAdminCheck(orgId, userId));
    await transact(items, changedConcurrently);
    return { ...current, role };
  });
}

/** Sets a member attribute that needs no invariant (sso); 404 when not a member. */
export async function setMemberAttributes(orgId: string, userId: string, values: Partial<Pick<MemberItem, 'sso'>>): Promise<MemberItem> {
  try {
    return await run(memberEntity.update({ orgId, userId }, { set: values }));
  } catch (error) {
    if (error instanceof NotFound) throw new ApiError(404, `No member found with id ${userId}`);
    throw error;
  }
}

/**
 * Ping: lastSeenAt = now, which puts the member in the sparse gsi3 (members by last seen).
 * Never moves lastSeenAt backwards when pings race; 404 when the membership is gone.
 */
export async function touchMember(member: MemberItem): Promise<MemberItem> {
  const lastSeenAt = nowIso();
  const seen: MemberItem = { ...member, lastSeenAt };
  try {
    await run(memberEntity.update({ orgId: member.orgId, userId: member.userId }, {
      set: { lastSeenAt }, reindex: seen, if: (w) => w.or(w.lacks('lastSeenAt'), w.lt('lastSeenAt', lastSeenAt)),
    }));
    return seen;
  } catch (error) {
    if (error instanceof NotFound) throw new ApiError(404, `No organization found with id ${member.orgId}`);
    if (error instanceof ConditionFailed) return memberEntity.fromRecord(error.item!); // a concurrent ping recorded a later time
    throw error;
  }
}

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
