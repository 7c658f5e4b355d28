import { nowIso } from '../../clock.ts';
import { randomId } from '../../ids.ts';
import { conflict, notFound } from '../../http/errors.ts';
import { transact, type Write } from '../../db/writes.ts';
import { commentEntity, commentReplyEntity, commentScopeOf, type CommentItem, type CommentScope, type CommentTargetItem } from '../../db/entities/comment.ts';
import { policies } from '../../policies/index.ts';
import { chunked, retryOnConflict } from '../retry.ts';
import { applyCommonChanges, authorizeChanges, type CommentChanges } from './changes.ts';
import { changedConcurrently, missingComment, openCommentsCounter, putComment, readComment, type Caller } from './store.ts';

/**
 * Comment writes (spec 4.5), for every scope: the space's own comments and a change
 * request's (CommentScope). Every write of a comment is conditional on the `version` it read
 * and bumps it; a concurrent writer makes the condition fail and the write runs again from a
 * fresh, consistent read (retryOnConflict), so concurrent reactions, replies and resolutions
 * all land. The scope's open-comment counter (the space's `comments`, spec 2.7, or the change
 * request's, spec 2.9) changes in the same transaction as the change it counts.
 */

export type { Caller } from './store.ts';
export type { CommentChanges } from './changes.ts';

/** A new open comment, not stored yet (postComment stores one; a review stores its own with the review). */
export function newComment(input: { spaceId: string; postedBy: string; markdown: string; target: CommentTargetItem }): CommentItem {
  return {
    id: randomId(),
    spaceId: input.spaceId,
    postedBy: input.postedBy,
    postedAt: nowIso(),
    markdown: input.markdown,
    target: input.target,
    status: 'open',
    reactions: [],
    replies: 0,
    repliers: [],
    version: 1,
  };
}

/** Posts an open comment; its scope's open-comment counter goes up in the same transaction. */
export async function postComment(input: { spaceId: string; postedBy: string; markdown: string; target: CommentTargetItem }): Promise<CommentItem> {
  const comment = newComment(input);
  const scope = commentScopeOf(comment);
  const missing = scope.changeRequestId === undefined
    ? notFound(`No space found with id ${scope.spaceId}`)
    : notFound(`No change request found with id ${scope.changeRequestId} in space ${scope.spaceId}`);
  await transact([putComment(comment), openCommentsCounter(scope, 1)], (index) =>
    index === 1 ? missing : conflict('The comment already exists'));
  return comment;
}

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
