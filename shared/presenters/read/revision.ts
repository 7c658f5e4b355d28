import { changeRequestEntity } from '../../db/entities/change-request.ts';
import type { LoadedRevision } from '../../content/revisions.ts';
import { presentRevision, type ContentContext, type ContentOptions } from '../revision.ts';
import type { RevisionOutput } from '../schemas/revision.ts';
import { presentChangeRequests } from './change-request.ts';
import type { RequestScope } from '../../http/scope.ts';

/**
 * A revision as the API answers it: a merge revision comes with the change request it
 * merged (`mergedFrom`), read in one more batch only for merge revisions.
 */
export async function presentLoadedRevision(
  request: RequestScope,
  content: LoadedRevision & ContentContext,
  options: ContentOptions,
): Promise<RevisionOutput> {
  const { revision } = content;
  if (revision.type !== 'merge' || !revision.mergedFrom) return presentRevision(revision, content.manifest, content, options);
  const record = await request.loader.get(changeRequestEntity.key({ spaceId: revision.spaceId, changeRequestId: revision.mergedFrom }));
  const [mergedFrom] = record
    ? await presentChangeRequests(request, [changeRequestEntity.fromRecord(record)], () => content.space.revision)
    : [];
  return presentRevision(revision, content.manifest, { ...content, ...(mergedFrom ? { mergedFrom } : {}) }, options);
}
