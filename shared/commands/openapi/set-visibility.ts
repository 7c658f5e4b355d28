import { nowIso } from '../../clock.ts';
import { NotFound } from '../../db/errors.ts';
import { openAPISpecEntity, type OpenAPISpecItem, type OpenAPIVisibility } from '../../db/entities/openapi-spec.ts';
import { notFound } from '../../http/errors.ts';
import { run } from '../../db/writes.ts';

export async function setOpenAPIVisibility(orgId: string, slug: string, visibility: OpenAPIVisibility): Promise<OpenAPISpecItem> {
  try {
    return await run(openAPISpecEntity.update({ orgId, slug }, { set: { visibility, updatedAt: nowIso() } }));
  } catch (error) {
    if (error instanceof NotFound) throw notFound(`No OpenAPI spec found with slug ${slug}`);
    throw error;
  }
}
