import { badRequest } from '../../http/errors.ts';
import { policies } from '../../policies/index.ts';
import { atLeast } from '../../policies/roles.ts';
import { effectiveRole } from '../../policies/effective-role.ts';
import { transact } from '../../db/writes.ts';
import { memberEntity } from '../../db/entities/member.ts';
import type { ChangeRequestItem } from '../../db/entities/change-request.ts';
import { nowIso } from '../../clock.ts';
import { loadChangeRequest } from '../../presenters/read/change-request.ts';
import { spaceStatusCounterWrite, updateChangeRequest, type ChangeRequestChanges } from '../change-requests/update.ts';
import { retryOnConflict } from '../retry.ts';
import {
  assertReviewable, assertReviewerCount, reviewStateOf, reviewStateWrite, reviewsChangedConcurrently,
} from './state.ts';
import type { RequestScope } from '../../http/scope.ts';

/** Loads the change request afresh on a retry (the earlier read lost a race). */
async function load(request: RequestScope, spaceId: string, idOrNumber: string, attempt: number) {
  if (attempt > 0) request.loader = request.loader.startOver();
  return loadChangeRequest(request, spaceId, idOrNumber);
}

/**
 * Each requested user must be a member who can read the space, and not the change request's
 * author (who cannot review their own change). 400 naming the offending entry.
 */
async function checkReviewers(request: RequestScope, access: Awaited<ReturnType<typeof loadChangeRequest>>, users: string[]): Promise<void> {
  const { space, org, ancestors, changeRequest: cr } = access;
  const loader = request.loader;
  const keys = users.map((userId) => memberEntity.key({ orgId: space.orgId, userId }));
  await loader.load(keys);
  users.forEach((userId, i) => {
    if (userId === cr.createdBy) throw badRequest(`users.${i}: ${userId} is the change request's author, who cannot review it`);
    const record = loader.peek(keys[i]!);
    const role = effectiveRole(record ? memberEntity.fromRecord(record) : undefined, org, [space, ...ancestors]);
    if (!atLeast(role, 'read')) throw badRequest(`users.${i}: ${userId} is not a member who can read this space`);
  });
}

/**
 * requestReviewersForChangeRequest: asks users to review. A user asked again gets a fresh
 * request, which makes their earlier review outdated (the public interface's "superseded by a
 * newer review request"). The optional subject and description are applied first, with the
 * rule of PATCH (its author with edit, or the review role). A draft becomes open.
 */
export async function requestReviewers(request: RequestScope, spaceId: string, idOrNumber: string, users: string[], changes: ChangeRequestChanges) {
  const first = await loadChangeRequest(request, spaceId, idOrNumber);
  policies.changeRequest.authorize(first, 'requestReviewers', first.changeRequest);
  assertReviewable(first.changeRequest);
  await checkReviewers(request, first, users);
  if (Object.keys(changes).length > 0) await updateChangeRequest(request, spaceId, first.changeRequest.id, changes);
  const requester = request.caller.userId;
  return retryOnConflict(async (attempt) => {
    const access = await load(request, spaceId, first.changeRequest.id, attempt);
    const cr = access.changeRequest;
    assertReviewable(cr);
    const state = reviewStateOf(cr);
    const requestedAt = nowIso();
    for (const userId of users) {
      if (!state.requestedReviewers.includes(userId)) state.requestedReviewers.push(userId);
      state.reviewRequests[userId] = { requestedBy: requester, requestedAt, revision: cr.revision };
      delete state.latestReviews[userId];
    }
    assertReviewerCount(state);
    // Asking for reviews moves a draft into review (the public interface: "move the change
    // request into the review workflow"), so it shows in the lists of open change requests.
    const opens = cr.status === 'draft';
    await transact([
      reviewStateWrite(cr, state, opens ? { open: requestedAt } : {}),
      ...(opens ? [spaceStatusCounterWrite(cr.spaceId, 'draft', 'open', requestedAt)] : []),
    ], reviewsChangedConcurrently);
    const updated: ChangeRequestItem = {
      ...cr, ...state, reviewsVersion: (cr.reviewsVersion ?? 0) + 1, ...(opens ? { status: 'open' as const, updatedAt: requestedAt } : {}),
    };
    return { ...access, changeRequest: updated };
  });
}

/**
 * removeRequestedReviewerFromChangeRequest: withdraws a request (the edit role, or the
 * requested user declining). The reviewer's review, if any, stays. Returns whether a request
 * was removed (205) or there was none (204).
 */
export async function removeRequestedReviewer(request: RequestScope, spaceId: string, idOrNumber: string, userId: string): Promise<boolean> {
  return retryOnConflict(async (attempt) => {
    const access = await load(request, spaceId, idOrNumber, attempt);
    const { changeRequest: cr } = access;
    policies.changeRequest.authorize(access, 'removeReviewer', { ...cr, reviewer: userId });
    if (!cr.requestedReviewers.includes(userId)) return false;
    assertReviewable(cr);
    const state = reviewStateOf(cr);
    state.requestedReviewers = state.requestedReviewers.filter((u) => u !== userId);
    delete state.reviewRequests[userId];
    await transact([reviewStateWrite(cr, state)], reviewsChangedConcurrently);
    return true;
  });
}
