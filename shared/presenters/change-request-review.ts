import type { ChangeRequestItem } from '../db/entities/change-request.ts';
import type { ChangeRequestReviewItem } from '../db/entities/change-request-review.ts';
import type { UserItem } from '../db/entities/user.ts';
import { isOutdated } from '../commands/change-request-reviews/state.ts';
import { absentUser, presentUser } from './user.ts';
import { apiLocation } from './urls.ts';
import type { ChangeRequestReviewOutput, RequestedReviewerOutput } from './schemas/change-request-review.ts';
import type { CommentOutput } from './schemas/comment.ts';

export interface ReviewPresentationContext {
  /** The reviews' change request as it is now: `outdated` is computed against it. */
  changeRequest: ChangeRequestItem;
  /** Users named by the reviews and requests, loaded beforehand; a missing one presents with an empty profile. */
  user(userId: string): UserItem | undefined;
  /** The presented change request comment posted with a review, when it still exists. */
  comment(commentId: string): CommentOutput | undefined;
}

export function reviewUserIds(review: ChangeRequestReviewItem): string[] {
  return review.requestedBy ? [review.reviewer, review.requestedBy] : [review.reviewer];
}

export function reviewsPath(cr: Pick<ChangeRequestItem, 'spaceId' | 'id'>): string {
  return `/spaces/${cr.spaceId}/change-requests/${cr.id}/reviews`;
}

/** ChangeRequestReview of the public interface, every field. Reviews never change: updatedAt = createdAt. */
export function presentReview(review: ChangeRequestReviewItem, context: ReviewPresentationContext): ChangeRequestReviewOutput {
  const user = (id: string) => presentUser(context.user(id) ?? absentUser(id, review.createdAt));
  const comment = review.commentId ? context.comment(review.commentId) : undefined;
  return {
    object: 'change-request-review' as const,
    id: review.id,
    revision: review.revision,
    reviewer: user(review.reviewer),
    ...(review.requestedBy ? { requestedBy: user(review.requestedBy) } : {}),
    status: review.status,
    outdated: isOutdated(review, context.changeRequest),
    ...(comment ? { comment } : {}),
    createdAt: review.createdAt,
    updatedAt: review.createdAt,
    urls: { location: apiLocation(`${reviewsPath(context.changeRequest)}/${review.id}`) },
  };
}

/** ChangeRequestRequestedReviewer of the public interface (kind `user`: requests name users). */
export function presentRequestedReviewer(userId: string, context: Pick<ReviewPresentationContext, 'changeRequest' | 'user'>): RequestedReviewerOutput {
  const request = context.changeRequest.reviewRequests?.[userId];
  const at = request?.requestedAt ?? context.changeRequest.createdAt;
  const user = (id: string) => presentUser(context.user(id) ?? absentUser(id, at));
  return {
    object: 'change-request-requested-reviewer' as const,
    revision: request?.revision ?? context.changeRequest.revision,
    requestedBy: user(request?.requestedBy ?? context.changeRequest.createdBy),
    createdAt: at,
    kind: 'user' as const,
    user: user(userId),
  };
}

