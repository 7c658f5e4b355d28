import { defineEntity } from '../entity.ts';
import type { LatestReviewState, ReviewRequestState } from './change-request-review.ts';

export const changeRequestStatuses = ['draft', 'open', 'merged', 'archived'] as const;
export type ChangeRequestStatus = (typeof changeRequestStatuses)[number];

/** A rich document (spec 2.1 item 6), stored as given. */
export type RichDocument = { object: 'document'; nodes: unknown[]; data?: Record<string, unknown> } & Record<string, unknown>;

export interface ChangeRequestItem {
  id: string;
  spaceId: string;
  /** Organization of the space at creation: the org-level list (gsi1). */
  orgId: string;
  /** Incremental per space, from 1; never reused (see changeRequestNumberEntity). */
  number: number;
  status: ChangeRequestStatus;
  subject: string;
  description?: RichDocument;
  createdBy: string;
  createdAt: string;
  updatedAt: string;
  /** The change request's current revision (at creation: the space's revision). */
  revision: string;
  /** The space revision the change request was created from. */
  revisionInitial: string;
  /** The space revision last pulled in by `update`. */
  revisionMergedAncestor?: string;
  /** The space revision the merge produced. */
  revisionMerged?: string;
  mergedBy?: string;
  mergedAt?: string;
  /** Open comments on the change request (kept by the comments group with ADD). */
  comments: number;
  /** User ids who contributed (the creator first). Internal: the `contributor` filter. */
  contributors: string[];
  /** User ids asked to review, in request order. Internal: the `requestedReviewer` filter. */
  requestedReviewers: string[];
  /** Details of each pending review request, by user id (shared/commands/change-request-reviews/state.ts). */
  reviewRequests?: Record<string, ReviewRequestState>;
  /** Each reviewer's latest review, by user id: what merge rules are evaluated on. */
  latestReviews?: Record<string, LatestReviewState>;
  /** Bumped by every review or review request write; a merge is conditional on it. */
  reviewsVersion?: number;
  conversationsIssuesCluster?: string;
}

/** Numbers are zero-padded so that they sort as strings. */
export function paddedNumber(n: number): string {
  return String(n).padStart(10, '0');
}

/** Numbers that fit the padded sort key: 1..9,999,999,999. */
export const MAX_CHANGE_REQUEST_NUMBER = 9_999_999_999;

/**
 * SPACE#<space> / CR#<id>: lives in its space's partition (one purge removes it).
 * gsi1 ORG#<org>#CHANGE_REQUESTS / <createdAt>#<id>: the organization's list, by creation.
 * gsi2 SPACE#<space>#CHANGE_REQUESTS / <number>: the space's list, by number (= creation).
 */
export const changeRequestEntity = defineEntity<ChangeRequestItem>()({
  type: 'change-request',
  key: ({ spaceId, changeRequestId }: { spaceId: string; changeRequestId: string }) => ({ pk: `SPACE#${spaceId}`, sk: `CR#${changeRequestId}` }),
  indexes: {
    byOrg: { index: 'gsi1', pk: (a: { orgId: string }) => `ORG#${a.orgId}#CHANGE_REQUESTS`, sk: (cr) => `${cr.createdAt}#${cr.id}` },
    bySpace: { index: 'gsi2', pk: (a: { spaceId: string }) => `SPACE#${a.spaceId}#CHANGE_REQUESTS`, sk: (cr) => paddedNumber(cr.number) },
  },
});

const NUMBER_PREFIX = 'CRNUMBER#';

export interface ChangeRequestNumberItem {
  spaceId: string;
  number: number;
  changeRequestId: string;
}

/**
 * SPACE#<space> / CRNUMBER#<number, zero-padded to 10>: resolves a number to its change
 * request, and guarantees (attribute_not_exists on creation) that a number is used once.
 */
export const changeRequestNumberEntity = defineEntity<ChangeRequestNumberItem>()({
  type: 'change-request-number',
  key: ({ spaceId, number }: { spaceId: string; number: number }) => ({ pk: `SPACE#${spaceId}`, sk: `${NUMBER_PREFIX}${paddedNumber(number)}` }),
  partitions: {
    /** The space's number pointers in number order. */
    inSpace: (a: { spaceId: string }) => ({ pk: `SPACE#${a.spaceId}`, prefix: NUMBER_PREFIX }),
  },
});

/** The space counter that counts change requests of a status, if any (total aside). */
export function statusCounter(status: ChangeRequestStatus): 'changeRequestsOpen' | 'changeRequestsDraft' | undefined {
  if (status === 'open') return 'changeRequestsOpen';
  if (status === 'draft') return 'changeRequestsDraft';
  return undefined;
}
