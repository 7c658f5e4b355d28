import { openAPISpecEntity, type OpenAPISpecItem } from '../../db/entities/openapi-spec.ts';

/** The consistent read the OpenAPI commands and the processing job share. */

export async function readOpenAPISpec(orgId: string, slug: string, consistent = false): Promise<OpenAPISpecItem | undefined> {
  return openAPISpecEntity.get({ orgId, slug }, { consistent });
}
