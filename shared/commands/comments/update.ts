import { nowIso } from '../../clock.ts';
import { transact } from '../../db/writes.ts';
import { type CommentItem, type CommentScope } from '../../db/entities/comment.ts';
import { policies } from '../../policies/index.ts';
import { retryOnConflict } from '../retry.ts';
import { applyCommonChanges, authorizeChanges, type CommentChanges } from './changes.ts';
import { changedConcurrently, missingComment, openCommentsCounter, putComment, readComment, type Caller } from './store.ts';

/**
 * PUT comment. `body` is the author's alone; `resolved` the author's or a space admin's;
 * reactions anyone's with the comment role. Resolving sets `resolvedAt`/`resolvedBy` and
 * takes the comment off its scope's open count; reopening clears them and puts it back.
 * A change that changes nothing (resolving a resolved comment, an existing reaction)
 * writes nothing. `cached` is the record the request already read (checked to be in scope).
 */
export async function updateComment(scope: CommentScope, commentId: string, caller: Caller, changes: CommentChanges, cached?: CommentItem): Promise<CommentItem> {
  return retryOnConflict(async (attempt) => {
    const current = attempt === 0 && cached ? cached : await readComment(scope, commentId);
    if (!current) throw missingComment(commentId);
    authorizeChanges(caller, current, changes);
    if (changes.resolved !== undefined) policies.comment.authorize(caller, 'resolve', current);
    const now = nowIso();
    const next: CommentItem = { ...current };
    applyCommonChanges(next, caller.userId, changes, now);
    if (changes.resolved === true && current.status === 'open') {
      next.status = 'resolved';
      next.resolvedAt = now;
      next.resolvedBy = caller.userId;
    } else if (changes.resolved === false && current.status === 'resolved') {
      next.status = 'open';
      delete next.resolvedAt;
      delete next.resolvedBy;
    }
    if (JSON.stringify(next) === JSON.stringify(current)) return current;
    next.version = current.version + 1;
    const items = [putComment(next, current.version)];
    if (next.status !== current.status) items.push(openCommentsCounter(scope, next.status === 'open' ? 1 : -1));
    await transact(items, changedConcurrently);
    return next;
  });
}
