import { defineEntity } from '../entity.ts';

export const reviewStatuses = ['approved', 'changes-requested'] as const;
export type ReviewStatus = (typeof reviewStatuses)[number];

/** A pending request for one user's review, kept on the change request item (reviewRequests). */
export interface ReviewRequestState {
  requestedBy: string;
  requestedAt: string;
  /** The change request's revision when the request was made. */
  revision: string;
}

/** A reviewer's latest review, kept on the change request item (latestReviews): what merge rules read. */
export interface LatestReviewState {
  review: string;
  status: ReviewStatus;
  /** The change request's revision the review applies to. */
  revision: string;
}

/** One submitted review. Immutable: a new submission supersedes it (it becomes outdated). */
export interface ChangeRequestReviewItem {
  id: string;
  spaceId: string;
  changeRequestId: string;
  reviewer: string;
  /** Who had asked this reviewer, when the review answered a request. */
  requestedBy?: string;
  status: ReviewStatus;
  revision: string;
  /** The change request comment posted with the review, if any. */
  commentId?: string;
  createdAt: string;
}

/** gsi2 partition of a change request's reviews, sorted by `<createdAt>#<id>`. */
const reviewsPartition = (spaceId: string, changeRequestId: string) => `SPACE#${spaceId}#CR#${changeRequestId}#REVIEWS`;

/**
 * SPACE#<space> / CRREVIEW#<change request>#<review>: a review lives in its space's partition
 * (one purge removes it); lookup by id is one GetItem. gsi2: the change request's reviews by
 * creation. Who is currently requested and each reviewer's latest review are kept on the change
 * request item itself, so a merge decides on one item it can hold its transaction to.
 */
export const changeRequestReviewEntity = defineEntity<ChangeRequestReviewItem>()({
  type: 'change-request-review',
  key: ({ spaceId, changeRequestId, reviewId }: { spaceId: string; changeRequestId: string; reviewId: string }) => ({ pk: `SPACE#${spaceId}`, sk: `CRREVIEW#${changeRequestId}#${reviewId}` }),
  indexes: {
    byChangeRequest: {
      index: 'gsi2', pk: (a: { spaceId: string; changeRequestId: string }) => reviewsPartition(a.spaceId, a.changeRequestId), sk: (r) => `${r.createdAt}#${r.id}`,
    },
  },
});
