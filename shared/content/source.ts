import { notFound } from '../http/errors.ts';
import { loadSpaceAccess } from '../policies/access.ts';
import { loadRevision, type LoadedRevision } from './revisions.ts';
import type { RequestScope } from '../http/scope.ts';

/**
 * The content a read operation is about: the space (with the caller's access) and one of
 * its revisions, by default its primary one. 404 when the caller cannot read the space or
 * the revision does not belong to it.
 */
export async function loadSpaceContent(request: RequestScope, spaceId: string, revisionId?: string) {
  const access = await loadSpaceAccess(request, spaceId);
  const id = revisionId ?? access.space.revision;
  const loaded: LoadedRevision | undefined = id ? await loadRevision(spaceId, id) : undefined;
  if (!loaded) throw notFound(revisionId ? `No revision ${revisionId} in space ${spaceId}` : `Space ${spaceId} has no content`);
  return { ...access, ...loaded };
}
