import { openAPISpecEntity } from '../../db/entities/openapi-spec.ts';
import { run } from '../../db/writes.ts';

/** Deletes the spec item (its blobs are content-addressed and may be shared: they stay). */
export async function deleteOpenAPISpec(orgId: string, slug: string): Promise<boolean> {
  return (await run(openAPISpecEntity.delete({ orgId, slug }))) !== undefined;
}
