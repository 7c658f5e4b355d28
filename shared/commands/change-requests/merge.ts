import { ApiError, conflict, notFound } from '../../http/errors.ts';
import { policies } from '../../policies/index.ts';
import { nowIso } from '../../clock.ts';
import { transact } from '../../db/writes.ts';
import { changeRequestEntity, statusCounter, type ChangeRequestItem } from '../../db/entities/change-request.ts';
import { loadRevision, prepareRevision, type LoadedRevision } from '../../content/revisions.ts';
import { changeRequestBase } from '../../content/change-request-content.ts';
import { movePrimaryRevision } from '../../content/primary-revision.ts';
import { mergeManifests, type PageConflict } from '../../content/merge/manifests.ts';
import { loadChangeRequest } from '../../presenters/read/change-request.ts';
import { changeRequestRevisionWrite } from './update.ts';
import { Rejection, retryOnConflict } from '../retry.ts';
import { effectiveMergeRules, enforceMergeRules } from './merge-rules.ts';
import type { RequestScope } from '../../http/scope.ts';
import { contentUpdated, emitOrganizationEvent } from '../../integrations/events.ts';

async function revisionOf(spaceId: string, revisionId: string): Promise<LoadedRevision> {
  const loaded = await loadRevision(spaceId, revisionId);
  if (!loaded) throw notFound(`No revision ${revisionId} in space ${spaceId}`);
  return loaded;
}

function conflictError(action: string, conflicts: PageConflict[]): ApiError {
  return new Rejection(409, `The change request cannot be ${action}: ${conflicts.length} conflict(s) between its content and the primary content`, { conflicts });
}

/** Loads what merge and update work on, and checks who may run them. */
async function prepare(request: RequestScope, spaceId: string, idOrNumber: string, attempt: number, action: 'merge' | 'update') {
  // A retry starts from fresh reads of everything.
  if (attempt > 0) request.loader = request.loader.startOver();
  const access = await loadChangeRequest(request, spaceId, idOrNumber);
  const { changeRequest: cr, space, org } = access;
  policies.space.authorize(access, 'edit', space);
  if (cr.status === 'merged' || cr.status === 'archived') throw new Rejection(409, `The change request is ${cr.status}`);
  // Merge rules bind everyone, admins included, unless a rule `allow_bypass` names them.
  if (action === 'merge') {
    enforceMergeRules(effectiveMergeRules(space, org), { cr, spaceRevision: space.revision, actor: request.caller.userId });
  }
  const [base, primary, proposed] = await Promise.all([
    revisionOf(spaceId, changeRequestBase(cr)), revisionOf(spaceId, space.revision!), revisionOf(spaceId, cr.revision),
  ]);
  return { ...access, cr, base, primary, proposed };
}

/**
 * Merge (spec 4.4): a three-way merge of the change request's content into the primary
 * content, from their common ancestor. The new primary revision names both as parents; the
 * space's revision, its counters and the change request's status change in one transaction,
 * conditional on both revisions being the ones merged (a concurrent edit or merge makes it
 * run again from fresh reads). Conflicts answer 409 with the pages and blocks involved.
 * The space's merge rules are checked first (403 naming the rule, nothing written), and the
 * transaction is conditional on the reviews, subject and description they were checked on.
 */
export async function mergeChangeRequest(request: RequestScope, spaceId: string, idOrNumber: string) {
  const userId = request.caller.userId;
  return retryOnConflict(async (attempt) => {
    const { cr, space, base, primary, proposed } = await prepare(request, spaceId, idOrNumber, attempt, 'merge');
    // Nothing moved on the primary side: the change request's content is the result.
    const merged = base.revision.id === primary.revision.id
      ? { manifest: proposed.manifest, conflicts: [] }
      : await mergeManifests(base.manifest, primary.manifest, proposed.manifest);
    if (merged.conflicts.length > 0) throw conflictError('merged', merged.conflicts);
    const now = nowIso();
    const next = await prepareRevision({
      spaceId, manifest: merged.manifest, parents: [primary.revision.id, proposed.revision.id], type: 'merge', createdBy: userId, mergedFrom: cr.id,
    });
    const counter = statusCounter(cr.status);
    await transact([
      next.put,
      movePrimaryRevision({
        spaceId, from: primary.revision.id, to: next.revision.id, now, unlockedOnly: true,
        ...(counter ? { add: { [counter]: -1 } } : {}),
      }),
      changeRequestEntity.update({ spaceId, changeRequestId: cr.id }, {
        set: { status: 'merged', revisionMerged: next.revision.id, mergedBy: userId, mergedAt: now, updatedAt: now },
        // The merge rules were checked on this state: reviews, subject and description as read.
        if: (w) => w.and(
          w.eq('revision', proposed.revision.id), w.eq('status', cr.status), w.eq('updatedAt', cr.updatedAt),
          cr.reviewsVersion === undefined ? w.lacks('reviewsVersion') : w.eq('reviewsVersion', cr.reviewsVersion),
        ),
      }),
    ], () => conflict('The space or the change request changed during the merge; retry'));
    const updated: ChangeRequestItem = { ...cr, status: 'merged', revisionMerged: next.revision.id, mergedBy: userId, mergedAt: now, updatedAt: now };
    await emitOrganizationEvent(space.orgId, contentUpdated(spaceId, next.revision.id));
    return { revision: next.revision, changeRequest: updated, space: { ...space, revision: next.revision.id } };
  });
}

/**
 * Update (spec 4.4): a three-way merge of the primary content into the change request, so
 * it is no longer outdated: a new change request revision with both parents, and
 * `revisionMergedAncestor` = the primary revision taken in.
 */
export async function updateChangeRequestFromPrimary(request: RequestScope, spaceId: string, idOrNumber: string) {
  const userId = request.caller.userId;
  return retryOnConflict(async (attempt) => {
    const { cr, space, base, primary, proposed } = await prepare(request, spaceId, idOrNumber, attempt, 'update');
    if (base.revision.id === primary.revision.id) return { revision: proposed.revision, changeRequest: cr, space };
    const merged = await mergeManifests(base.manifest, proposed.manifest, primary.manifest);
    if (merged.conflicts.length > 0) throw conflictError('updated', merged.conflicts);
    const now = nowIso();
    const next = await prepareRevision({
      spaceId, manifest: merged.manifest, parents: [proposed.revision.id, primary.revision.id], type: 'update', createdBy: userId,
    });
    const { write, updated } = changeRequestRevisionWrite(cr, { revision: next.revision.id, now, revisionMergedAncestor: primary.revision.id });
    await transact([next.put, write], () => conflict('The change request changed during the update; retry'));
    return { revision: next.revision, changeRequest: updated, space };
  });
}
