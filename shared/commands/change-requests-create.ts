import type { Context } from 'hono';
import type { AppEnv } from '../http/env.ts';
import { conflict, notFound } from '../http/errors.ts';
import { authorize } from '../policies/authorize.ts';
import { atLeast } from '../policies/roles.ts';
import { isExpired, loadSpaceAccess } from '../policies/access.ts';
import { spaceEntity, type SpaceItem } from '../db/entities/space.ts';
import {
  changeRequestEntity, changeRequestNumberEntity, CHANGE_REQUEST_NUMBER_ATTRIBUTE, MAX_CHANGE_REQUEST_NUMBER,
  statusCounter, type ChangeRequestItem, type RichDocument,
} from '../db/entities/change-request.ts';
import { getRecord, queryPage, transact, type TransactItem } from '../db/operations.ts';
import { config } from '../config.ts';
import { nowIso } from '../clock.ts';
import { randomId } from '../ids.ts';
import { Rejection, retryOnConflict } from './retry.ts';

type Ctx = Context<AppEnv>;
type SpaceWithNumber = SpaceItem & { [CHANGE_REQUEST_NUMBER_ATTRIBUTE]?: number };

/** Concurrent creations in one space serialise on the space's number: allow many rounds. */
const CREATE_ATTEMPTS = 30;

/**
 * Creates a change request (status `draft`) in a space, from the space's current revision.
 *
 * The number: the space record holds the last number given (`changeRequestNumber`).
 * TransactWriteItems cannot return the value an ADD produced, so the number is read first
 * and the transaction is conditional on it still being the value read; a concurrent
 * creation makes the condition fail and the work runs again from a fresh read. The same
 * transaction puts the change request, a number pointer (`attribute_not_exists`: a number
 * is never used twice, whatever happens to the counter) and the space counters.
 */
export async function createChangeRequest(c: Ctx, input: { spaceId: string; subject?: string; description?: RichDocument }) {
  const access = await loadSpaceAccess(c, input.spaceId);
  authorize(atLeast(access.role, 'edit'), 'Creating a change request requires the edit role on the space');
  authorize(access.space.editMode !== 'locked', 'The space is locked: change requests cannot be created');
  const createdBy = c.get('caller').userId;
  // Set when a number pointer already existed: the counter is behind (restored by a stale
  // write), so the next attempt starts after the highest number in use.
  let numberTaken = false;
  let floor = 0;

  const changeRequest = await retryOnConflict(async (attempt) => {
    const space = attempt === 0 ? (access.space as SpaceWithNumber) : await freshSpace(input.spaceId);
    if (space.editMode === 'locked') throw new Rejection(403, 'The space is locked: change requests cannot be created');
    if (!space.revision) throw new Rejection(409, 'The space has no content revision yet');
    if (numberTaken) {
      floor = Math.max(floor, await highestNumber(space.id));
      numberTaken = false;
    }
    const expected = space[CHANGE_REQUEST_NUMBER_ATTRIBUTE] ?? 0;
    const number = Math.max(expected, floor) + 1;
    if (number > MAX_CHANGE_REQUEST_NUMBER) throw new Rejection(409, 'The space has reached the maximum number of change requests');
    const now = nowIso();
    const cr: ChangeRequestItem = {
      id: randomId(),
      spaceId: space.id,
      orgId: space.orgId,
      number,
      status: 'draft',
      subject: input.subject ?? '',
      ...(input.description !== undefined ? { description: input.description } : {}),
      createdBy,
      createdAt: now,
      updatedAt: now,
      revision: space.revision,
      revisionInitial: space.revision,
      comments: 0,
      contributors: [createdBy],
      requestedReviewers: [],
    };
    const items: TransactItem[] = [
      spaceCounterWrite(space, expected, number, now),
      {
        Put: {
          TableName: config.tableName,
          Item: changeRequestEntity.toRecord({ spaceId: space.id, changeRequestId: cr.id }, cr),
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
      {
        Put: {
          TableName: config.tableName,
          Item: changeRequestNumberEntity.toRecord({ spaceId: space.id, number }, { spaceId: space.id, number, changeRequestId: cr.id }),
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
    ];
    await transact(items, (index) => {
      if (index === 2) numberTaken = true;
      return conflict('A concurrent request created a change request in this space; retry');
    });
    return cr;
  }, CREATE_ATTEMPTS);
  // The space record changed (counters): later reads in this request must not see the old one.
  c.get('loader').forget(spaceEntity.key({ spaceId: input.spaceId }));
  return { ...access, changeRequest };
}

/**
 * The space update of a creation: the number moves from `expected` to `number`, the total
 * and draft counters grow by one. Conditional on the space still existing, live, unlocked,
 * on the same revision (the change request starts from it) and on the number read.
 * `updatedAt` moves too: space updates replace the whole record conditionally on
 * `updatedAt`, so a concurrent space update fails (409) rather than writing back the old
 * counters.
 */
function spaceCounterWrite(space: SpaceWithNumber, expected: number, number: number, now: string): TransactItem {
  const draft = statusCounter('draft')!;
  return {
    Update: {
      TableName: config.tableName,
      Key: spaceEntity.key({ spaceId: space.id }),
      UpdateExpression: 'SET #number = :number, #updatedAt = :now ADD #total :one, #draft :one',
      ConditionExpression: [
        'attribute_exists(pk)',
        'attribute_not_exists(deletedAt)',
        '#editMode <> :locked',
        '#revision = :revision',
        expected === 0 ? 'attribute_not_exists(#number)' : '#number = :expected',
      ].join(' AND '),
      ExpressionAttributeNames: {
        '#number': CHANGE_REQUEST_NUMBER_ATTRIBUTE, '#updatedAt': 'updatedAt', '#total': 'changeRequests',
        '#draft': draft, '#editMode': 'editMode', '#revision': 'revision',
      },
      ExpressionAttributeValues: {
        ':number': number, ':now': now, ':one': 1, ':locked': 'locked', ':revision': space.revision,
        ...(expected === 0 ? {} : { ':expected': expected }),
      },
    },
  };
}

/** The space as stored now (strongly consistent); 404 once it is gone or deleted. */
async function freshSpace(spaceId: string): Promise<SpaceWithNumber> {
  const record = await getRecord(spaceEntity.key({ spaceId }), true);
  const space = record ? (spaceEntity.fromRecord(record) as SpaceWithNumber) : undefined;
  if (!space || space.deletedAt || isExpired(space)) throw notFound(`No space found with id ${spaceId}`);
  return space;
}

/** The highest change request number in use in a space (0 when none). */
async function highestNumber(spaceId: string): Promise<number> {
  const page = await queryPage({ partition: `SPACE#${spaceId}`, prefix: 'CRNUMBER#', forward: false, limit: 1 });
  return (page.records[0]?.number as number | undefined) ?? 0;
}
