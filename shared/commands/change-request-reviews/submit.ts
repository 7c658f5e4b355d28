import { nowIso } from '../../clock.ts';
import { randomId } from '../../ids.ts';
import { policies } from '../../policies/index.ts';
import { transact, type Write } from '../../db/writes.ts';
import type { CommentItem } from '../../db/entities/comment.ts';
import { changeRequestReviewEntity, type ChangeRequestReviewItem, type ReviewStatus } from '../../db/entities/change-request-review.ts';
import type { ChangeRequestItem } from '../../db/entities/change-request.ts';
import { newComment } from '../comments/post.ts';
import { putComment } from '../comments/store.ts';
import { loadChangeRequest } from '../../presenters/read/change-request.ts';
import { retryOnConflict } from '../retry.ts';
import { assertReviewable, assertReviewerCount, reviewStateOf, reviewStateWrite, reviewsChangedConcurrently } from './state.ts';
import type { RequestScope } from '../../http/scope.ts';

/**
 * submitChangeRequestReview: a review of the change request's current revision, by someone
 * with the review role on the space or whom a request asked (who can read it); never by the
 * change request's author. It becomes the reviewer's latest review, so their earlier one is
 * outdated. A comment given with it is posted in the change request (counted in its
 * `comments`) in the same transaction, which is conditional on the revision reviewed.
 */
export async function submitReview(request: RequestScope, spaceId: string, idOrNumber: string, input: { status: ReviewStatus; markdown?: string }) {
  const reviewer = request.caller.userId;
  return retryOnConflict(async (attempt) => {
    if (attempt > 0) request.loader = request.loader.startOver();
    const access = await loadChangeRequest(request, spaceId, idOrNumber);
    const { changeRequest: cr } = access;
    const pending = cr.reviewRequests?.[reviewer];
    policies.changeRequest.authorize(access, 'review', cr);
    assertReviewable(cr);
    const now = nowIso();
    const reviewId = randomId();
    // The comment names its review (the public interface's `target.review`).
    const comment: CommentItem | undefined = input.markdown
      ? newComment({ spaceId, postedBy: reviewer, markdown: input.markdown, target: { revision: cr.revision, changeRequest: cr.id, review: reviewId } })
      : undefined;
    const review: ChangeRequestReviewItem = {
      id: reviewId, spaceId, changeRequestId: cr.id, reviewer, status: input.status, revision: cr.revision, createdAt: now,
      ...(pending ? { requestedBy: pending.requestedBy } : {}),
      ...(comment ? { commentId: comment.id } : {}),
    };
    const state = reviewStateOf(cr);
    state.latestReviews[reviewer] = { review: review.id, status: review.status, revision: review.revision };
    assertReviewerCount(state);
    const items: Write<unknown>[] = [
      reviewStateWrite(cr, state, { revision: cr.revision, addComment: comment !== undefined }),
      changeRequestReviewEntity.create({ spaceId, changeRequestId: cr.id, reviewId: review.id }, review),
    ];
    if (comment) items.push(putComment(comment));
    await transact(items, reviewsChangedConcurrently);
    const updated: ChangeRequestItem = {
      ...cr, ...state, reviewsVersion: (cr.reviewsVersion ?? 0) + 1, comments: cr.comments + (comment ? 1 : 0),
    };
    return { ...access, changeRequest: updated, review, comment };
  });
}
