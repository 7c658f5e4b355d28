import { nowIso } from '../../clock.ts';
import { randomId } from '../../ids.ts';
import { transact } from '../../db/writes.ts';
import { type CommentItem, type CommentReplyItem, type CommentScope } from '../../db/entities/comment.ts';
import { policies } from '../../policies/index.ts';
import { retryOnConflict } from '../retry.ts';
import { countReplier } from '../comments/changes.ts';
import { changedConcurrently, missingComment, putComment, putReply, readComment, type Caller } from '../comments/store.ts';

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
