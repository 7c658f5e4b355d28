import type { Role } from '../../http/schemas.ts';
import { notFound } from '../../http/errors.ts';
import { pageOfArray } from '../../http/array-page.ts';
import type { Where } from '../../db/conditions.ts';
import type { Key } from '../../db/table.ts';
import { userEntity } from '../../db/entities/user.ts';
import { commentEntity } from '../../db/entities/comment.ts';
import type { ChangeRequestItem } from '../../db/entities/change-request.ts';
import { changeRequestReviewEntity, type ChangeRequestReviewItem } from '../../db/entities/change-request-review.ts';
import { presentRequestedReviewer, presentReview, reviewUserIds } from '../change-request-review.ts';
import { presentComments } from './comments.ts';
import { currentReviews } from '../../commands/change-request-reviews/state.ts';
import type { RequestScope } from '../../http/scope.ts';

/**
 * The `outdated` filter as a FilterExpression: the reviews that count are listed on the change
 * request item (at most 100, the most an IN takes), so "not outdated" is "one of those ids".
 */
function outdatedFilter(cr: ChangeRequestItem, outdated: boolean | undefined) {
  if (outdated === undefined) return { filter: undefined, empty: false };
  const ids = [...currentReviews(cr).values()].map((r) => r.review);
  if (ids.length === 0) return { filter: undefined, empty: !outdated };
  const filter = (w: Where<ChangeRequestReviewItem>) => (outdated ? w.not(w.in('id', ids)) : w.in('id', ids));
  return { filter, empty: false };
}

/** getReviewsByChangeRequestId: one page of a change request's reviews, oldest first (one Query of gsi2). */
export async function listReviews(cr: ChangeRequestItem, query: { page?: string; limit: number; outdated?: boolean }) {
  const { filter, empty } = outdatedFilter(cr, query.outdated);
  if (empty) return { reviews: [] as ChangeRequestReviewItem[] };
  const page = await changeRequestReviewEntity.query.byChangeRequest({ spaceId: cr.spaceId, changeRequestId: cr.id }, { where: filter })
    .page({ limit: query.limit, cursor: query.page });
  return { reviews: page.items, ...(page.next ? { next: page.next } : {}) };
}

/** getChangeRequestReviewById: 404 when the change request has no such review. */
export async function findReview(request: RequestScope, cr: ChangeRequestItem, reviewId: string): Promise<ChangeRequestReviewItem> {
  const record = await request.loader.get(changeRequestReviewEntity.key({ spaceId: cr.spaceId, changeRequestId: cr.id, reviewId }));
  if (!record) throw notFound(`No review found with id ${reviewId} in change request ${cr.id}`);
  return changeRequestReviewEntity.fromRecord(record);
}

/** Users and comments of the reviews in one batch, then the comments (and their users) presented. */
export async function presentReviews(request: RequestScope, role: Role | null, cr: ChangeRequestItem, reviews: ChangeRequestReviewItem[]) {
  const loader = request.loader;
  const userKeys = [...new Set(reviews.flatMap(reviewUserIds))].map((userId) => userEntity.key({ userId }));
  const commentKeys = reviews.flatMap((r) => (r.commentId ? [commentEntity.key({ spaceId: cr.spaceId, commentId: r.commentId })] : []));
  await loader.load([...userKeys, ...commentKeys]);
  const comments = commentKeys.map((k) => loader.peek(k)).filter((r) => r !== undefined).map((r) => commentEntity.fromRecord(r));
  const presented = new Map((await presentComments(request, role, comments)).map((p) => [p.id, p]));
  return reviews.map((review) => presentReview(review, {
    changeRequest: cr,
    user: (userId) => userOf(request, userId),
    comment: (commentId) => presented.get(commentId),
  }));
}

/** getRequestedReviewersByChangeRequestId: the pending requests in request order, paged in memory (at most 100). */
export async function listRequestedReviewers(request: RequestScope, cr: ChangeRequestItem, query: { page?: string; limit: number }) {
  const page = pageOfArray(cr.requestedReviewers ?? [], { limit: query.limit, cursor: query.page, scope: `requested-reviewers:${cr.id}` });
  return { items: await presentRequestedReviewers(request, cr, page.items), next: page.next };
}

export async function presentRequestedReviewers(request: RequestScope, cr: ChangeRequestItem, userIds: string[]) {
  const named = userIds.flatMap((userId) => [userId, cr.reviewRequests?.[userId]?.requestedBy ?? cr.createdBy]);
  await request.loader.load([...new Set(named)].map((userId) => userEntity.key({ userId }) as Key));
  return userIds.map((userId) => presentRequestedReviewer(userId, { changeRequest: cr, user: (id) => userOf(request, id) }));
}

function userOf(request: RequestScope, userId: string) {
  const record = request.loader.peek(userEntity.key({ userId }));
  return record ? userEntity.fromRecord(record) : undefined;
}
