import { ApiError, conflict } from '../http/errors.ts';
import { policies } from '../policies/index.ts';
import { nowIso } from '../clock.ts';
import { transact } from '../db/writes.ts';
import { TransactionConflict } from '../db/errors.ts';
import { retryOnConflict } from '../commands/retry.ts';
import type { ChangeRequestItem } from '../db/entities/change-request.ts';
import { changeRequestRevisionWrite } from '../commands/change-requests/update.ts';
import { loadChangeRequestContent } from './change-request-content.ts';
import { prepareRevision } from './revisions.ts';
import type { Manifest } from './types.ts';
import type { RequestScope } from '../http/scope.ts';

/** A concurrent edit of the same change request moved its revision: the edit runs again on top of it. */
class ConcurrentEdit extends ApiError {
  constructor() {
    super(409, 'The change request was edited by another request at the same time; retry');
  }
}

export type ChangeRequestContent = Awaited<ReturnType<typeof loadChangeRequestContent>>;

/**
 * One edit of a change request's content (a batch of changes, a template): checks that the
 * caller may edit (`edit` role, unlocked space, change request not merged or archived),
 * lets `edit` compute the new manifest from the current one, and stores it as one new
 * revision. Only the change request's revision, updatedAt and contributors change,
 * conditional on the revision read; a concurrent edit makes this one run again on top of it
 * (after a jittered pause, so colliding edits spread out rather than collide again).
 */
export async function editChangeRequestContent<R>(
  request: RequestScope,
  spaceId: string,
  changeRequestId: string,
  edit: (content: ChangeRequestContent, now: string) => Promise<{ manifest: Manifest; result: R }>,
): Promise<{ result: R; changeRequest: ChangeRequestItem; content: ChangeRequestContent }> {
  const userId = request.caller.userId;
  // Only a concurrent edit is retried: the edit's own 409s (a merged change request, a
  // change that cannot apply) would answer the same again.
  const concurrent = (error: unknown) => error instanceof ConcurrentEdit || error instanceof TransactionConflict;
  return retryOnConflict(async (attempt) => {
    if (attempt > 0) request.loader = request.loader.startOver();
    const content = await loadChangeRequestContent(request, spaceId, changeRequestId);
    const { changeRequest: cr, space } = content;
    policies.space.authorize(content, 'edit', space);
    if (cr.status === 'merged' || cr.status === 'archived') throw conflict(`The change request is ${cr.status}; its content cannot change`);
    const now = nowIso();
    const { manifest, result } = await edit(content, now);
    const next = await prepareRevision({ spaceId, manifest, parents: [cr.revision], type: 'edits', createdBy: userId });
    const { write, updated } = changeRequestRevisionWrite(cr, { revision: next.revision.id, now, contributor: userId });
    await transact([next.put, write], () => new ConcurrentEdit());
    return { result, changeRequest: updated, content };
  }, { retryable: concurrent });
}
