import type { ChangeRequestItem } from '../db/entities/change-request.ts';
import { definePolicy, requirement, role } from './policy.ts';
import { atLeast } from './roles.ts';

/**
 * A change request, for the caller's effective role on its space. Its content, creation
 * and merge follow the space's `edit` (spacePolicy); `reviewer` names the user a
 * requested-reviewer operation is about.
 */
type ChangeRequest = Pick<ChangeRequestItem, 'createdBy' | 'reviewRequests'> & { reviewer?: string };

const isAuthor = (userId: string | undefined, cr: ChangeRequest) => userId !== undefined && userId === cr.createdBy;

export const changeRequestPolicy = definePolicy({
  rules: {
    /** PATCH subject, description, status. */
    update: [requirement<ChangeRequest>(
      (actor, cr) => (isAuthor(actor.userId, cr) && atLeast(actor.role, 'edit')) || atLeast(actor.role, 'review'),
      'Updating a change request requires being its author (with the edit role) or the review role on the space')],
    requestReviewers: [role('edit', 'Requesting or removing reviewers requires the edit role on the space')],
    /** Withdrawing a request: the edit role, or the requested user declining. */
    removeReviewer: [requirement<ChangeRequest>(
      (actor, cr) => atLeast(actor.role, 'edit') || (actor.userId !== undefined && actor.userId === cr.reviewer),
      'Requesting or removing reviewers requires the edit role on the space')],
    review: [
      requirement<ChangeRequest>(
        (actor, cr) => atLeast(actor.role, 'review') || (actor.userId !== undefined && cr.reviewRequests?.[actor.userId] !== undefined && atLeast(actor.role, 'read')),
        'Reviewing a change request requires the review role on the space, or a request for your review'),
      requirement<ChangeRequest>((actor, cr) => !isAuthor(actor.userId, cr), 'The author of a change request cannot review it'),
    ],
  },
  presented: {},
});
