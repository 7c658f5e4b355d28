import type { OpenAPISpecItem } from '../../db/entities/openapi-spec.ts';
import type { OpenAPISource } from './source.ts';
import { createOpenAPISpec } from './create.ts';
import { replaceOpenAPISource } from './replace-source.ts';

/** PUT: creates the spec (created: true) or replaces its source. Retries the create/update race once. */
export async function putOpenAPISpec(orgId: string, slug: string, source: OpenAPISource): Promise<{ spec: OpenAPISpecItem; created: boolean }> {
  for (let attempt = 0; ; attempt++) {
    const updated = await replaceOpenAPISource(orgId, slug, source);
    if (updated) return { spec: updated, created: false };
    try {
      return { spec: await createOpenAPISpec(orgId, slug, source), created: true };
    } catch (error) {
      if (attempt > 0 || (error as { status?: number }).status !== 409) throw error;
    }
  }
}
