import { conflict } from '../../http/errors.ts';
import type { Write } from '../../db/writes.ts';
import { changeRequestEntity, type ChangeRequestItem } from '../../db/entities/change-request.ts';
import type { ChangeRequestReviewItem, LatestReviewState, ReviewRequestState } from '../../db/entities/change-request-review.ts';
import { Rejection } from '../retry.ts';

/** Most users one request-reviewers call names. */
export const MAX_USERS_PER_REVIEW_REQUEST = 50;
/** Most distinct people (requested or having reviewed) on one change request: the state stays small on its item. */
export const MAX_REVIEWERS_PER_CHANGE_REQUEST = 100;

/** What the change request item holds about its reviews. */
export interface ReviewState {
  requestedReviewers: string[];
  reviewRequests: Record<string, ReviewRequestState>;
  latestReviews: Record<string, LatestReviewState>;
}

export function reviewStateOf(cr: ChangeRequestItem): ReviewState {
  return {
    requestedReviewers: [...(cr.requestedReviewers ?? [])],
    reviewRequests: { ...(cr.reviewRequests ?? {}) },
    latestReviews: { ...(cr.latestReviews ?? {}) },
  };
}

/**
 * A reviewer's review that counts: their latest one, made on the change request's current
 * revision. A newer submission, a new request for their review, or a content edit of the
 * change request makes it outdated.
 */
export function currentReviews(cr: ChangeRequestItem): Map<string, LatestReviewState> {
  const current = new Map<string, LatestReviewState>();
  for (const [userId, latest] of Object.entries(cr.latestReviews ?? {})) {
    if (latest.revision === cr.revision) current.set(userId, latest);
  }
  return current;
}

export function isOutdated(review: ChangeRequestReviewItem, cr: ChangeRequestItem): boolean {
  const latest = cr.latestReviews?.[review.reviewer];
  return latest?.review !== review.id || review.revision !== cr.revision;
}

/** Reviews and requests are only taken while the change request can still be merged. */
export function assertReviewable(cr: ChangeRequestItem): void {
  if (cr.status === 'merged' || cr.status === 'archived') throw new Rejection(409, `The change request is ${cr.status}: its reviews cannot change`);
}

export function assertReviewerCount(state: ReviewState): void {
  const people = new Set([...Object.keys(state.reviewRequests), ...Object.keys(state.latestReviews)]);
  if (people.size > MAX_REVIEWERS_PER_CHANGE_REQUEST) {
    throw new Rejection(400, `users: a change request has at most ${MAX_REVIEWERS_PER_CHANGE_REQUEST} reviewers (requested or having reviewed)`);
  }
}

/**
 * The write of a change request's new review state: conditional on the state version read
 * (every review write bumps it, so concurrent writers serialise and merges see them), on the
 * status read, and, for a submitted review, on the revision it applies to. With `open` (a
 * time), a draft becomes open: asking for reviews puts it in review.
 */
export function reviewStateWrite(
  cr: ChangeRequestItem, next: ReviewState, options: { revision?: string; addComment?: boolean; open?: string } = {},
): Write<unknown> {
  return changeRequestEntity.update({ spaceId: cr.spaceId, changeRequestId: cr.id }, {
    set: {
      requestedReviewers: next.requestedReviewers, reviewRequests: next.reviewRequests, latestReviews: next.latestReviews,
      // `open`: the time a draft moves to open (asked for review).
      ...(options.open ? { status: 'open', updatedAt: options.open } : {}),
    },
    add: { reviewsVersion: 1, ...(options.addComment ? { comments: 1 } : {}) },
    if: (w) => w.and(
      w.eq('status', cr.status),
      cr.reviewsVersion === undefined ? w.lacks('reviewsVersion') : w.eq('reviewsVersion', cr.reviewsVersion),
      options.revision !== undefined && w.eq('revision', options.revision),
    ),
  });
}

export const reviewsChangedConcurrently = () => conflict('The change request or its reviews changed during the request; retry');
