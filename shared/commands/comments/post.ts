import { nowIso } from '../../clock.ts';
import { randomId } from '../../ids.ts';
import { conflict, notFound } from '../../http/errors.ts';
import { transact } from '../../db/writes.ts';
import { commentScopeOf, type CommentItem, type CommentTargetItem } from '../../db/entities/comment.ts';
import { openCommentsCounter, putComment } from './store.ts';

/**
 * Comment writes (spec 4.5), for every scope: the space's own comments and a change
 * request's (CommentScope). Every write of a comment is conditional on the `version` it read
 * and bumps it; a concurrent writer makes the condition fail and the write runs again from a
 * fresh, consistent read (retryOnConflict), so concurrent reactions, replies and resolutions
 * all land. The scope's open-comment counter (the space's `comments`, spec 2.7, or the change
 * request's, spec 2.9) changes in the same transaction as the change it counts.
 */

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
