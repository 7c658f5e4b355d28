import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db } from '../db/client.ts';
import { config } from '../config.ts';
import { nowIso } from '../clock.ts';
import { addToCounter, getRecord, queryAll, queryPage, transact, type TransactItem } from '../db/operations.ts';
import { indexes } from '../db/table.ts';
import { memberEntity, type MemberItem } from '../db/entities/member.ts';
import { memberTeamsPartition, teamEntity, teamMemberEntity, type TeamMemberItem } from '../db/entities/team.ts';
import { ApiError } from '../http/errors.ts';
import type { Role } from '../http/schemas.ts';
import { chunked, Rejection, retryOnConflict } from './retry.ts';
import { membersPartition } from './members-list.ts';


export const LAST_ADMIN = 'The last admin of an organization cannot be removed or demoted; make another member admin first';

const changedConcurrently = () => new ApiError(409, 'The member was changed by another request; retry');

export async function readMember(orgId: string, userId: string): Promise<MemberItem | undefined> {
  const record = await getRecord(memberEntity.key({ orgId, userId }), true);
  return record ? memberEntity.fromRecord(record) : undefined;
}

/**
 * The last active admin must stay: finds another active admin with a filtered Query
 * (Limit-refilled by queryPage) and returns a ConditionCheck that it still is one when
 * the transaction commits. Two admins demoting each other at once cannot both succeed:
 * each transaction checks the other's role, and DynamoDB serializes them.
 */
async function anotherAdminCheck(orgId: string, userId: string): Promise<TransactItem> {
  const page = await queryPage({
    index: 'gsi2', partition: membersPartition(orgId), limit: 1,
    filter: {
      expression: '#role = :admin AND #disabled = :false AND #userId <> :me',
      names: { '#role': 'role', '#disabled': 'disabled', '#userId': 'userId' },
      values: { ':admin': 'admin', ':false': false, ':me': userId },
    },
  });
  const other = page.records[0];
  if (!other) throw new Rejection(409, LAST_ADMIN);
  return {
    ConditionCheck: {
      TableName: config.tableName,
      Key: memberEntity.key({ orgId, userId: other.userId as string }),
      ConditionExpression: '#role = :admin AND #disabled = :false',
      ExpressionAttributeNames: { '#role': 'role', '#disabled': 'disabled' },
      ExpressionAttributeValues: { ':admin': 'admin', ':false': false },
    },
  };
}

const isActiveAdmin = (m: MemberItem) => m.role === 'admin' && !m.disabled;

/** Condition that the member's role is still `role` (null needs attribute_type). */
function roleIs(role: Role | null) {
  return role === null
    ? { expression: 'attribute_type(#role, :nullType)', values: { ':nullType': 'NULL' } }
    : { expression: '#role = :previousRole', values: { ':previousRole': role } };
}

/**
 * PATCH member role. Demoting an active admin needs another active admin (409 otherwise).
 * `cached` is the record the request already read; retries read again, consistently.
 */
export async function updateMemberRole(orgId: string, userId: string, role: Role | null, cached?: MemberItem): Promise<MemberItem> {
  return retryOnConflict(async (attempt) => {
    const current = attempt === 0 && cached ? cached : await readMember(orgId, userId);
    if (!current) throw new Rejection(404, `No member found with id ${userId}`);
    const was = roleIs(current.role);
    const items: TransactItem[] = [{
      Update: {
        TableName: config.tableName,
        Key: memberEntity.key({ orgId, userId }),
        UpdateExpression: 'SET #role = :role',
        ConditionExpression: `attribute_exists(pk) AND ${was.expression}`,
        ExpressionAttributeNames: { '#role': 'role' },
        ExpressionAttributeValues: { ':role': role, ...was.values },
      },
    }];
    if (isActiveAdmin(current) && role !== 'admin') items.push(await anotherAdminCheck(orgId, userId));
    await transact(items, changedConcurrently);
    return { ...current, role };
  });
}

/** Sets a member attribute that needs no invariant (sso); 404 when not a member. */
export async function setMemberAttributes(orgId: string, userId: string, values: Partial<Pick<MemberItem, 'sso'>>): Promise<MemberItem> {
  const names: Record<string, string> = {};
  const vals: Record<string, unknown> = {};
  const sets = Object.entries(values).map(([k, v], i) => {
    names[`#a${i}`] = k;
    vals[`:v${i}`] = v;
    return `#a${i} = :v${i}`;
  });
  try {
    const out = await db().send(new UpdateCommand({
      TableName: config.tableName,
      Key: memberEntity.key({ orgId, userId }),
      UpdateExpression: `SET ${sets.join(', ')}`,
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: vals,
      ReturnValues: 'ALL_NEW',
    }));
    return memberEntity.fromRecord(out.Attributes!);
  } catch (error) {
    if ((error as Error).name === 'ConditionalCheckFailedException') throw new ApiError(404, `No member found with id ${userId}`);
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
  const gsi3 = indexes.gsi3;
  const attrs = memberEntity.indexAttributes(seen).set;
  try {
    await db().send(new UpdateCommand({
      TableName: config.tableName,
      Key: memberEntity.key({ orgId: member.orgId, userId: member.userId }),
      UpdateExpression: 'SET lastSeenAt = :seen, #g3pk = :g3pk, #g3sk = :g3sk',
      ConditionExpression: 'attribute_exists(pk) AND (attribute_not_exists(lastSeenAt) OR lastSeenAt < :seen)',
      ExpressionAttributeNames: { '#g3pk': gsi3.pk, '#g3sk': gsi3.sk },
      ExpressionAttributeValues: { ':seen': lastSeenAt, ':g3pk': attrs[gsi3.pk], ':g3sk': attrs[gsi3.sk] },
      ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
    }));
    return seen;
  } catch (error) {
    if ((error as Error).name !== 'ConditionalCheckFailedException') throw error;
    const old = (error as { Item?: Record<string, unknown> }).Item;
    if (!old) throw new ApiError(404, `No organization found with id ${member.orgId}`);
    return memberEntity.fromRecord(old); // a concurrent ping recorded a later time
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
    const memberships = (await queryAll({ index: 'gsi1', partition: memberTeamsPartition(orgId, userId) }))
      .map((r) => teamMemberEntity.fromRecord(r));
    const chunks = chunked(memberships, PAIRS_PER_TRANSACTION);
    const last = chunks.pop() ?? [];
    for (const chunk of chunks) {
      await transact([
        ...chunk.flatMap(leaveTeam),
        addToCounter(memberEntity.key({ orgId, userId }), 'teams', -chunk.length),
      ], changedConcurrently);
    }
    const was = roleIs(member.role);
    await transact([
      ...last.flatMap(leaveTeam),
      {
        Delete: {
          TableName: config.tableName,
          Key: memberEntity.key({ orgId, userId }),
          ConditionExpression: `attribute_exists(pk) AND (#teams = :teams OR attribute_not_exists(#teams)) AND ${was.expression}`,
          ExpressionAttributeNames: { '#teams': 'teams', '#role': 'role' },
          ExpressionAttributeValues: { ':teams': last.length, ...was.values },
        },
      },
      ...guard,
    ], changedConcurrently);
    return true;
  });
}

/** Delete a team membership and decrement the team's member count. */
function leaveTeam(tm: TeamMemberItem): TransactItem[] {
  return [
    {
      Delete: {
        TableName: config.tableName,
        Key: teamMemberEntity.key({ orgId: tm.orgId, teamId: tm.teamId, userId: tm.userId }),
        ConditionExpression: 'attribute_exists(pk)',
      },
    },
    addToCounter(teamEntity.key({ orgId: tm.orgId, teamId: tm.teamId }), 'members', -1),
  ];
}
