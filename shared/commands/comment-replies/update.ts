import { nowIso } from '../../clock.ts';
import { conflict } from '../../http/errors.ts';
import { transact } from '../../db/writes.ts';
import { type CommentReplyItem, type CommentScope } from '../../db/entities/comment.ts';
import { Rejection, retryOnConflict } from '../retry.ts';
import { applyCommonChanges, authorizeChanges, type CommentChanges } from '../comments/changes.ts';
import { putReply, readReply, type Caller } from '../comments/store.ts';

/** PUT reply: `body` (its author only) and reactions (the comment role). The route checked the comment's scope. */
export async function updateReply(
  scope: CommentScope, commentId: string, replyId: string, caller: Caller, changes: Omit<CommentChanges, 'resolved'>, cached?: CommentReplyItem,
): Promise<CommentReplyItem> {
  return retryOnConflict(async (attempt) => {
    const current = attempt === 0 && cached ? cached : await readReply(scope.spaceId, commentId, replyId);
    if (!current) throw new Rejection(404, `No reply found with id ${replyId}`);
    authorizeChanges(caller, current, changes);
    const next: CommentReplyItem = { ...current };
    applyCommonChanges(next, caller.userId, changes, nowIso());
    if (JSON.stringify(next) === JSON.stringify(current)) return current;
    next.version = current.version + 1;
    await transact([putReply(next, current.version)], () => conflict('The reply was changed by another request; retry'));
    return next;
  });
}
