import type { Context } from 'hono';
import type { AppEnv } from '../http/env.ts';
import { conflict } from '../http/errors.ts';
import { authorize } from '../policies/authorize.ts';
import { atLeast } from '../policies/roles.ts';
import { spaceEntity } from '../db/entities/space.ts';
import {
  changeRequestEntity, changeRequestNumberEntity, statusCounter, type ChangeRequestItem, type ChangeRequestStatus,
  type RichDocument,
} from '../db/entities/change-request.ts';
import { transact, type TransactItem } from '../db/operations.ts';
import { config } from '../config.ts';
import { nowIso } from '../clock.ts';
import { Rejection, retryOnConflict } from './retry.ts';
import { loadChangeRequest, parseChangeRequestNumber } from './change-requests-load.ts';

type Ctx = Context<AppEnv>;

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
export async function updateChangeRequest(c: Ctx, spaceId: string, idOrNumber: string, changes: ChangeRequestChanges) {
  const loader = c.get('loader');
  return retryOnConflict(async (attempt) => {
    if (attempt > 0) forgetChangeRequest(c, spaceId, idOrNumber);
    const access = await loadChangeRequest(c, spaceId, idOrNumber);
    const { changeRequest: cr, role } = access;
    const author = cr.createdBy === c.get('caller').userId;
    authorize(
      (author && atLeast(role, 'edit')) || atLeast(role, 'review'),
      'Updating a change request requires being its author (with the edit role) or the review role on the space',
    );
    const statusChanges = changes.status !== undefined && changes.status !== cr.status;
    if (statusChanges && cr.status === 'merged') throw new Rejection(409, 'The change request is merged: its status cannot change');
    const now = nowIso();
    const updated: ChangeRequestItem = { ...cr, ...changes, updatedAt: now };

    const names: Record<string, string> = { '#updatedAt': 'updatedAt', '#status': 'status' };
    const values: Record<string, unknown> = { ':now': now, ':read': cr.status };
    const sets = ['#updatedAt = :now'];
    for (const field of ['subject', 'description', 'status'] as const) {
      if (changes[field] === undefined) continue;
      names[`#${field}`] = field;
      values[`:${field}`] = changes[field];
      sets.push(`#${field} = :${field}`);
    }
    const items: TransactItem[] = [{
      Update: {
        TableName: config.tableName,
        Key: changeRequestEntity.key({ spaceId, changeRequestId: cr.id }),
        UpdateExpression: `SET ${sets.join(', ')}`,
        ConditionExpression: 'attribute_exists(pk) AND #status = :read',
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: values,
      },
    }];
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
 * change-requests-create.ts (space updates are optimistic on it).
 */
function spaceStatusCounterWrite(spaceId: string, from: ChangeRequestStatus, to: ChangeRequestStatus, now: string): TransactItem {
  const names: Record<string, string> = { '#updatedAt': 'updatedAt' };
  const values: Record<string, unknown> = { ':now': now };
  const adds: string[] = [];
  const fromCounter = statusCounter(from);
  const toCounter = statusCounter(to);
  if (fromCounter) {
    names['#from'] = fromCounter;
    values[':minus'] = -1;
    adds.push('#from :minus');
  }
  if (toCounter) {
    names['#to'] = toCounter;
    values[':plus'] = 1;
    adds.push('#to :plus');
  }
  return {
    Update: {
      TableName: config.tableName,
      Key: spaceEntity.key({ spaceId }),
      UpdateExpression: `SET #updatedAt = :now${adds.length ? ` ADD ${adds.join(', ')}` : ''}`,
      ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(deletedAt)',
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: values,
    },
  };
}

/** Drops the records of a change request (and its space) read by a failed attempt. */
function forgetChangeRequest(c: Ctx, spaceId: string, idOrNumber: string): void {
  const loader = c.get('loader');
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
 * a concurrent PATCH (status, subject, description) or comment count is never written back.
 * Returns the change request as it is after the write, for presenting.
 */
export function changeRequestRevisionWrite(
  cr: ChangeRequestItem,
  input: { revision: string; now: string; contributor?: string; revisionMergedAncestor?: string },
): { write: TransactItem; updated: ChangeRequestItem } {
  const names: Record<string, string> = { '#revision': 'revision', '#updatedAt': 'updatedAt' };
  const values: Record<string, unknown> = { ':revision': input.revision, ':now': input.now, ':previous': cr.revision };
  const sets = ['#revision = :revision', '#updatedAt = :now'];
  const updated: ChangeRequestItem = { ...cr, revision: input.revision, updatedAt: input.now };
  if (input.revisionMergedAncestor !== undefined) {
    names['#ancestor'] = 'revisionMergedAncestor';
    values[':ancestor'] = input.revisionMergedAncestor;
    sets.push('#ancestor = :ancestor');
    updated.revisionMergedAncestor = input.revisionMergedAncestor;
  }
  if (input.contributor !== undefined && !cr.contributors.includes(input.contributor)) {
    names['#contributors'] = 'contributors';
    values[':contributor'] = [input.contributor];
    values[':none'] = [];
    sets.push('#contributors = list_append(if_not_exists(#contributors, :none), :contributor)');
    updated.contributors = [...cr.contributors, input.contributor];
  }
  return {
    updated,
    write: {
      Update: {
        TableName: config.tableName,
        Key: changeRequestEntity.key({ spaceId: cr.spaceId, changeRequestId: cr.id }),
        UpdateExpression: `SET ${sets.join(', ')}`,
        ConditionExpression: 'attribute_exists(pk) AND #revision = :previous',
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: values,
      },
    },
  };
}
