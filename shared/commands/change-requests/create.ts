import { conflict, notFound } from '../../http/errors.ts';
import { policies } from '../../policies/index.ts';
import { isExpired, loadSpaceAccess } from '../../policies/access.ts';
import { spaceEntity, type SpaceItem } from '../../db/entities/space.ts';
import {
  changeRequestEntity, changeRequestNumberEntity, MAX_CHANGE_REQUEST_NUMBER,
  type ChangeRequestItem, type RichDocument,
} from '../../db/entities/change-request.ts';
import { transact, type Write } from '../../db/writes.ts';
import { nowIso } from '../../clock.ts';
import { randomId } from '../../ids.ts';
import { Rejection, retryOnConflict } from '../retry.ts';
import type { RequestScope } from '../../http/scope.ts';


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
export async function createChangeRequest(request: RequestScope, input: { spaceId: string; subject?: string; description?: RichDocument }) {
  const access = await loadSpaceAccess(request, input.spaceId);
  policies.space.authorize(access, 'edit', access.space);
  const createdBy = request.caller.userId;
  // Set when a number pointer already existed: the counter is behind (restored by a stale
  // write), so the next attempt starts after the highest number in use.
  let numberTaken = false;
  let floor = 0;

  const changeRequest = await retryOnConflict(async (attempt) => {
    const space = attempt === 0 ? access.space : await freshSpace(input.spaceId);
    if (space.editMode === 'locked') throw new Rejection(403, 'The space is locked: change requests cannot be created');
    if (!space.revision) throw new Rejection(409, 'The space has no content revision yet');
    if (numberTaken) {
      floor = Math.max(floor, await highestNumber(space.id));
      numberTaken = false;
    }
    const expected = space.changeRequestNumber ?? 0;
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
    const items: Write<unknown>[] = [
      spaceCounterWrite(space, expected, number, now),
      changeRequestEntity.create({ spaceId: space.id, changeRequestId: cr.id }, cr),
      changeRequestNumberEntity.create({ spaceId: space.id, number }, { spaceId: space.id, number, changeRequestId: cr.id }),
    ];
    await transact(items, (index) => {
      if (index === 2) numberTaken = true;
      return conflict('A concurrent request created a change request in this space; retry');
    });
    return cr;
  });
  // The space record changed (counters): later reads in this request must not see the old one.
  request.loader.forget(spaceEntity.key({ spaceId: input.spaceId }));
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
function spaceCounterWrite(space: SpaceItem, expected: number, number: number, now: string): Write<unknown> {
  return spaceEntity.update({ spaceId: space.id }, {
    set: { changeRequestNumber: number, updatedAt: now },
    add: { changeRequests: 1, changeRequestsDraft: 1 },
    if: (w) => w.and(
      w.lacks('deletedAt'),
      w.ne('editMode', 'locked'),
      w.eq('revision', space.revision!),
      expected === 0 ? w.lacks('changeRequestNumber') : w.eq('changeRequestNumber', expected),
    ),
  });
}

/** The space as stored now (strongly consistent); 404 once it is gone or deleted. */
async function freshSpace(spaceId: string): Promise<SpaceItem> {
  const space = await spaceEntity.get({ spaceId }, { consistent: true });
  if (!space || space.deletedAt || isExpired(space)) throw notFound(`No space found with id ${spaceId}`);
  return space;
}

/** The highest change request number in use in a space (0 when none). */
async function highestNumber(spaceId: string): Promise<number> {
  const page = await changeRequestNumberEntity.query.inSpace({ spaceId }, { forward: false }).page({ limit: 1 });
  return page.items[0]?.number ?? 0;
}
