import { openAPISpecEntity } from '../../db/entities/openapi-spec.ts';
import { run } from '../../db/writes.ts';
import { trimOpenAPIVersions } from './versions.ts';

/**
 * Deletes the spec item, then its versions (at most the retained ones: a bounded delete).
 * The spec goes first, so a run still processing it cannot add a version afterwards. Its
 * blobs are content-addressed and may be shared: they stay for the blob sweep.
 */
export async function deleteOpenAPISpec(orgId: string, slug: string): Promise<boolean> {
  const deleted = await run(openAPISpecEntity.delete({ orgId, slug }));
  await trimOpenAPIVersions(orgId, slug);
  return deleted !== undefined;
}
