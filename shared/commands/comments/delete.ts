import { transact, type Write } from '../../db/writes.ts';
import { commentEntity, commentReplyEntity, type CommentItem, type CommentScope } from '../../db/entities/comment.ts';
import { policies } from '../../policies/index.ts';
import { chunked, retryOnConflict } from '../retry.ts';
import { changedConcurrently, openCommentsCounter, readComment, type Caller } from './store.ts';

/**
 * DELETE comment, with its replies; an open comment leaves its scope's open count in the
 * same transaction. Replies beyond one transaction go first, in chunks; the last
 * transaction deletes the comment on the version whose replies were read, so a reply
 * posted meanwhile makes it run again. Nothing happens when the comment does not exist
 * in the scope.
 */
export async function deleteComment(scope: CommentScope, commentId: string, caller: Caller, cached?: CommentItem): Promise<void> {
  await retryOnConflict(async (attempt) => {
    const current = attempt === 0 && cached ? cached : await readComment(scope, commentId);
    if (!current) return;
    policies.comment.authorize(caller, 'delete', current);
    const replies = await commentReplyEntity.query.ofComment({ spaceId: scope.spaceId, commentId }).all();
    const replyDeletes: Write<unknown>[] = replies.map((r) => commentReplyEntity.delete({ spaceId: r.spaceId, commentId: r.commentId, replyId: r.id }));
    const last: Write<unknown>[] = [commentEntity.delete({ spaceId: scope.spaceId, commentId }, (w) => w.eq('version', current.version))];
    if (current.status === 'open') last.push(openCommentsCounter(scope, -1));
    const early = replyDeletes.slice(0, Math.max(0, replyDeletes.length - (100 - last.length)));
    for (const chunk of chunked(early, 100)) await transact(chunk);
    await transact([...last, ...replyDeletes.slice(early.length)], changedConcurrently);
  });
}
