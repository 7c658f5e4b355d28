import { conflict } from '../../http/errors.ts';
import { policies } from '../../policies/index.ts';
import { spaceEntity } from '../../db/entities/space.ts';
import {
  changeRequestEntity, changeRequestNumberEntity, statusCounter, type ChangeRequestItem, type ChangeRequestStatus,
  type RichDocument,
} from '../../db/entities/change-request.ts';
import { transact, type Write } from '../../db/writes.ts';
import { nowIso } from '../../clock.ts';
import { Rejection, retryOnConflict } from '../retry.ts';
import { loadChangeRequest, parseChangeRequestNumber } from '../../presenters/read/change-request.ts';
import type { RequestScope } from '../../http/scope.ts';

export interface ChangeRequestChanges {
  subject?: string;
  description?: RichDocument;
  /** `merged` is never set here (the merge operation does it). */
  status?: Exclude<ChangeRequestStatus, 'merged'>;
}

/**
 * PATCH of a change request: subject, description and status. Allowed to its author (who
 * still has `edit` on the space) and to anyone with `review` or more. A status change moves
 * the space counters in the same transaction, conditional on the status that was read; a
 * concurrent change makes it run again from a fresh read (every field is set to an
 * absolute value, so the last writer wins and the counters stay true). A merged change
 * request keeps its status (409).
 */
export async function updateChangeRequest(request: RequestScope, spaceId: string, idOrNumber: string, changes: ChangeRequestChanges) {
  const loader = request.loader;
  return retryOnConflict(async (attempt) => {
    if (attempt > 0) forgetChangeRequest(request, spaceId, idOrNumber);
    const access = await loadChangeRequest(request, spaceId, idOrNumber);
    const { changeRequest: cr } = access;
    policies.changeRequest.authorize(access, 'update', cr);
    const statusChanges = changes.status !== undefined && changes.status !== cr.status;
    if (statusChanges && cr.status === 'merged') throw new Rejection(409, 'The change request is merged: its status cannot change');
    const now = nowIso();
    const updated: ChangeRequestItem = { ...cr, ...changes, updatedAt: now };

    const { subject, description, status } = changes;
    const items: Write<unknown>[] = [changeRequestEntity.update({ spaceId, changeRequestId: cr.id }, {
      set: { subject, description, status, updatedAt: now },
      if: (w) => w.eq('status', cr.status),
    })];
    if (statusChanges) items.push(spaceStatusCounterWrite(spaceId, cr.status, changes.status!, now));
    await transact(items, () => conflict('The change request or its space was changed by another request; retry'));
    loader.forget(changeRequestEntity.key({ spaceId, changeRequestId: cr.id }));
    if (statusChanges) loader.forget(spaceEntity.key({ spaceId }));
    return { ...access, changeRequest: updated };
  });
}

/**
 * Moves one change request between the space's status counters (open, draft; merged and
 * archived are only in the total). `updatedAt` moves for the reason given in
 * create.ts (space updates are optimistic on it).
 */
export function spaceStatusCounterWrite(spaceId: string, from: ChangeRequestStatus, to: ChangeRequestStatus, now: string): Write<unknown> {
  const fromCounter = statusCounter(from);
  const toCounter = statusCounter(to);
  return spaceEntity.update({ spaceId }, {
    set: { updatedAt: now },
    add: { ...(fromCounter ? { [fromCounter]: -1 } : {}), ...(toCounter ? { [toCounter]: 1 } : {}) },
    if: (w) => w.lacks('deletedAt'),
  });
}

/** Drops the records of a change request (and its space) read by a failed attempt. */
function forgetChangeRequest(request: RequestScope, spaceId: string, idOrNumber: string): void {
  const loader = request.loader;
  loader.forget(spaceEntity.key({ spaceId }));
  loader.forget(changeRequestEntity.key({ spaceId, changeRequestId: idOrNumber }));
  const number = parseChangeRequestNumber(idOrNumber);
  if (number === undefined) return;
  const pointer = loader.peek(changeRequestNumberEntity.key({ spaceId, number }));
  if (pointer) loader.forget(changeRequestEntity.key({ spaceId, changeRequestId: pointer.changeRequestId as string }));
}

/**
 * The write that moves a change request to a new revision (a content edit, an update from
 * the space's content): only the fields it changes, conditional on the revision read, so
 * a concurrent PATCH (status, subject, description) or comment count is never written back,
 * and on the change request still taking content (not merged or archived since it was read:
 * an edit landing after a merge would be answered 200 and be in no primary content).
 * Returns the change request as it is after the write, for presenting.
 */
export function changeRequestRevisionWrite(
  cr: ChangeRequestItem,
  input: { revision: string; now: string; contributor?: string; revisionMergedAncestor?: string },
): { write: Write<unknown>; updated: ChangeRequestItem } {
  const updated: ChangeRequestItem = { ...cr, revision: input.revision, updatedAt: input.now };
  if (input.revisionMergedAncestor !== undefined) updated.revisionMergedAncestor = input.revisionMergedAncestor;
  const joins = input.contributor !== undefined && !cr.contributors.includes(input.contributor);
  if (joins) updated.contributors = [...cr.contributors, input.contributor!];
  return {
    updated,
    write: changeRequestEntity.update({ spaceId: cr.spaceId, changeRequestId: cr.id }, {
      set: { revision: input.revision, updatedAt: input.now, revisionMergedAncestor: input.revisionMergedAncestor },
      ...(joins ? { append: { contributors: [input.contributor] } } : {}),
      if: (w) => w.and(w.eq('revision', cr.revision), w.in('status', ['draft', 'open'])),
    }),
  };
}
