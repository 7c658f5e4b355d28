import { openAPISpecEntity } from '../../db/entities/openapi-spec.ts';
import { run } from '../../db/writes.ts';
import { deleteOpenAPIVersionsOf } from './versions.ts';

/**
 * Deletes the spec item, then its versions. The spec goes first, so a run still processing
 * it cannot add a version afterwards; only its own versions go, so a spec created again under
 * the slug meanwhile keeps its. Blobs are content-addressed and may be shared: they stay for
 * the blob sweep.
 */
export async function deleteOpenAPISpec(orgId: string, slug: string): Promise<boolean> {
  const deleted = await run(openAPISpecEntity.delete({ orgId, slug }));
  if (deleted) await deleteOpenAPIVersionsOf(orgId, slug, deleted.id);
  return deleted !== undefined;
}
