import { operationRoutes, route } from '../../shared/http/route.ts';
import * as op from './operations.ts';
import { presentList } from '../../shared/presenters/list.ts';
import { apiLocation } from '../../shared/presenters/urls.ts';
import { reviewsPath } from '../../shared/presenters/change-request-review.ts';
import type { RichDocument } from '../../shared/db/entities/change-request.ts';
import { loadChangeRequest } from '../../shared/presenters/read/change-request.ts';
import { requestReviewers, removeRequestedReviewer } from '../../shared/commands/change-request-reviews/request.ts';
import { submitReview } from '../../shared/commands/change-request-reviews/submit.ts';
import {
  findReview, listRequestedReviewers, listReviews, presentRequestedReviewers, presentReviews,
} from '../../shared/presenters/read/change-request-reviews.ts';

/**
 * Change request reviews, as the public interface has them: requested reviewers (request,
 * list, remove) and reviews (submit, list, get). Reading needs `read` on the space; see
 * docs/permissions.md for who may request and review. Merge rules read the result
 * (shared/commands/change-requests/merge-rules.ts).
 */
export const reviewsRoutes = operationRoutes();

route(reviewsRoutes, op.getRequestedReviewersByChangeRequestId, async (c) => {
  const { spaceId, changeRequestId } = c.req.valid('param');
  const { changeRequest: cr } = await loadChangeRequest(c.var.scope, spaceId, changeRequestId);
  const { page, limit } = c.req.valid('query');
  const { items, next } = await listRequestedReviewers(c.var.scope, cr, { page, limit });
  return c.json(presentList(items, next));
});

route(reviewsRoutes, op.requestReviewersForChangeRequest, async (c) => {
  const { spaceId, changeRequestId } = c.req.valid('param');
  const { users, subject, description } = c.req.valid('json');
  const changes = {
    ...(subject !== undefined ? { subject } : {}),
    ...(description !== undefined ? { description: description as RichDocument } : {}),
  };
  const { changeRequest: cr } = await requestReviewers(c.var.scope, spaceId, changeRequestId, users, changes);
  return c.json({ users: await presentRequestedReviewers(c.var.scope, cr, users) });
});

route(reviewsRoutes, op.removeRequestedReviewerFromChangeRequest, async (c) => {
  const { spaceId, changeRequestId, userId } = c.req.valid('param');
  const removed = await removeRequestedReviewer(c.var.scope, spaceId, changeRequestId, userId);
  // The public interface: 205 when removed, 204 when there was no such request.
  return c.body(null, removed ? 205 : 204);
});

route(reviewsRoutes, op.getReviewsByChangeRequestId, async (c) => {
  const { spaceId, changeRequestId } = c.req.valid('param');
  const { page, limit, outdated } = c.req.valid('query');
  const { changeRequest: cr, role } = await loadChangeRequest(c.var.scope, spaceId, changeRequestId);
  const { reviews, next } = await listReviews(cr, { page, limit, outdated });
  return c.json(presentList(await presentReviews(c.var.scope, role, cr, reviews), next));
});

route(reviewsRoutes, op.submitChangeRequestReview, async (c) => {
  const { spaceId, changeRequestId } = c.req.valid('param');
  const { status, comment } = c.req.valid('json');
  const { changeRequest: cr, role, review } = await submitReview(c.var.scope, spaceId, changeRequestId, { status, markdown: comment?.markdown });
  const [presented] = await presentReviews(c.var.scope, role, cr, [review]);
  c.header('Location', apiLocation(`${reviewsPath(cr)}/${review.id}`));
  return c.json(presented, 201);
});

route(reviewsRoutes, op.getChangeRequestReviewById, async (c) => {
  const { spaceId, changeRequestId, reviewId } = c.req.valid('param');
  const { changeRequest: cr, role } = await loadChangeRequest(c.var.scope, spaceId, changeRequestId);
  const review = await findReview(c.var.scope, cr, reviewId);
  const [presented] = await presentReviews(c.var.scope, role, cr, [review]);
  return c.json(presented);
});
