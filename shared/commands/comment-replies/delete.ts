import { transact } from '../../db/writes.ts';
import { commentReplyEntity, type CommentItem, type CommentReplyItem, type CommentScope } from '../../db/entities/comment.ts';
import { policies } from '../../policies/index.ts';
import { retryOnConflict } from '../retry.ts';
import { uncountReplier } from '../comments/changes.ts';
import { changedConcurrently, putComment, readComment, readReply, type Caller } from '../comments/store.ts';

/**
 * DELETE reply (its author or a space admin, as for comments): the reply goes and the
 * comment's `replies` and `repliers` (count, and `updatedAt` when the deleted reply was the
 * replier's latest) go down in the same transaction. Nothing happens when the comment (in
 * the scope) or the reply does not exist.
 */
export async function deleteReply(
  scope: CommentScope, commentId: string, replyId: string, caller: Caller, cached?: { comment: CommentItem; reply: CommentReplyItem },
): Promise<void> {
  await retryOnConflict(async (attempt) => {
    const comment = attempt === 0 && cached ? cached.comment : await readComment(scope, commentId);
    const reply = attempt === 0 && cached ? cached.reply : await readReply(scope.spaceId, commentId, replyId);
    if (!comment || !reply) return;
    policies.comment.authorize(caller, 'deleteReply', reply);
    const replier = comment.repliers.find((r) => r.userId === reply.postedBy);
    const latest = replier && replier.count > 1 && replier.updatedAt <= reply.postedAt
      ? await latestReplyAt(scope.spaceId, commentId, reply)
      : undefined;
    const next: CommentItem = {
      ...comment,
      replies: Math.max(0, comment.replies - 1),
      repliers: uncountReplier(comment.repliers, reply.postedBy, latest),
      version: comment.version + 1,
    };
    await transact([
      commentReplyEntity.delete({ spaceId: scope.spaceId, commentId, replyId }, (w) => w.eq('version', reply.version)),
      putComment(next, comment.version),
    ], changedConcurrently);
  });
}

/** postedAt of the latest reply its author has on the comment besides `reply` (one Query of the reply list, newest first). */
async function latestReplyAt(spaceId: string, commentId: string, reply: CommentReplyItem): Promise<string | undefined> {
  const page = await commentReplyEntity.query.byComment({ spaceId, commentId }, {
    forward: false, where: (w) => w.and(w.eq('postedBy', reply.postedBy), w.ne('id', reply.id)),
  }).page({ limit: 1 });
  return page.items[0]?.postedAt;
}
