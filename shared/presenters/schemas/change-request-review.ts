import * as v from 'valibot';
import { reviewStatuses } from '../../db/entities/change-request-review.ts';
import { timestampSchema, urlSchema } from './common.ts';
import { userSchema } from './user.ts';
import { commentSchema } from './comment.ts';

/** ChangeRequestReview of the public interface (reviews never change: updatedAt = createdAt). */
export const changeRequestReviewSchema = v.object({
  object: v.literal('change-request-review'),
  id: v.string(),
  revision: v.string(),
  reviewer: userSchema,
  requestedBy: v.optional(userSchema),
  status: v.picklist(reviewStatuses),
  outdated: v.boolean(),
  /** The change request comment posted with the review, while it exists. */
  comment: v.optional(commentSchema),
  createdAt: timestampSchema,
  updatedAt: timestampSchema,
  urls: v.object({ location: urlSchema }),
});
export type ChangeRequestReviewOutput = v.InferOutput<typeof changeRequestReviewSchema>;

/** ChangeRequestRequestedReviewer of the public interface (kind `user`). */
export const requestedReviewerSchema = v.object({
  object: v.literal('change-request-requested-reviewer'),
  revision: v.string(),
  requestedBy: userSchema,
  createdAt: timestampSchema,
  kind: v.literal('user'),
  user: userSchema,
});
export type RequestedReviewerOutput = v.InferOutput<typeof requestedReviewerSchema>;

/** POST .../requested-reviewers: the reviewers just requested. */
export const requestedReviewersSchema = v.object({ users: v.array(requestedReviewerSchema) });
