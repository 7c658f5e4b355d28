import { notFound } from '../http/errors.ts';
import { loadChangeRequest } from '../presenters/read/change-request.ts';
import { loadRevision } from './revisions.ts';
import type { RequestScope } from '../http/scope.ts';

/** A change request (by id or number) of a readable space, with its current revision. */
export async function loadChangeRequestContent(request: RequestScope, spaceId: string, changeRequestId: string) {
  const loaded = await loadChangeRequest(request, spaceId, changeRequestId);
  const revision = await loadRevision(spaceId, loaded.changeRequest.revision);
  if (!revision) throw notFound(`Change request ${changeRequestId} has no content`);
  return { ...loaded, ...revision };
}

/** The revision a change request's content is compared with: the last primary revision it took in. */
export function changeRequestBase(cr: { revisionMergedAncestor?: string; revisionInitial: string }): string {
  return cr.revisionMergedAncestor ?? cr.revisionInitial;
}
