import { nowIso } from '../../clock.ts';
import { randomId } from '../../ids.ts';
import { conflict } from '../../http/errors.ts';
import { transact } from '../../db/writes.ts';
import {
  commentReplyEntity, type CommentItem, type CommentReplyItem, type CommentScope,
} from '../../db/entities/comment.ts';
import { policies } from '../../policies/index.ts';
import { Rejection, retryOnConflict } from '../retry.ts';
import { applyCommonChanges, authorizeChanges, countReplier, uncountReplier, type CommentChanges } from './changes.ts';
import { changedConcurrently, missingComment, putComment, putReply, readComment, readReply, type Caller } from './store.ts';

/**
 * Reply writes (spec 4.5), in every comment scope. The comment's `replies` and `repliers`
 * change in the same transaction as the reply they count, on the comment version that was
 * read; concurrent writers retry from a fresh read (retryOnConflict).
 */

/** POST reply: the reply and the comment's `replies`/`repliers` in one transaction. Needs the comment role. */
export async function postReply(
  scope: CommentScope, commentId: string, caller: Caller, markdown: string, cached?: CommentItem,
): Promise<{ reply: CommentReplyItem; comment: CommentItem }> {
  policies.comment.authorize(caller, 'reply', { postedBy: caller.userId });
  const replyId = randomId();
  return retryOnConflict(async (attempt) => {
    const current = attempt === 0 && cached ? cached : await readComment(scope, commentId);
    if (!current) throw missingComment(commentId);
    const now = nowIso();
    const reply: CommentReplyItem = {
      id: replyId, spaceId: scope.spaceId, commentId, postedBy: caller.userId, postedAt: now, markdown, reactions: [], version: 1,
    };
    const comment: CommentItem = {
      ...current,
      replies: current.replies + 1,
      repliers: countReplier(current.repliers, caller.userId, now),
      version: current.version + 1,
    };
    await transact([putComment(comment, current.version), putReply(reply)], changedConcurrently);
    return { reply, comment };
  });
}

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
