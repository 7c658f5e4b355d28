/**
 * Processed versions of an OpenAPI spec (beyond spec 4.6: the public interface's
 * `/openapi/{specSlug}/versions`), in the organization's partition next to their spec.
 */
import { defineEntity } from '../entity.ts';

// Not under the spec's `OPENAPI#` prefix: listing an org's specs must not read their versions.
const VERSION_PREFIX = 'OPENAPIVERSION#';

export interface OpenAPISpecVersionItem {
  /** Sortable: creation time first (newOpenAPIVersionId), so the sort key orders versions by age. */
  id: string;
  orgId: string;
  slug: string;
  /** The spec that made it: a spec deleted and created again under its slug does not see the old one's versions. */
  specId: string;
  createdAt: string;
  /** JSON blob of the processed document (the spec's lastVersionBlob while it is the latest). */
  documentBlob: string;
  /** Bytes blob of the source text exactly as submitted or fetched. */
  sourceBlob: string;
  format: 'json' | 'yaml';
  /** The URL it was fetched from (without credentials); absent for inline text. */
  sourceURL?: string;
}

/** ORG#<org> / OPENAPIVERSION#<slug>#<versionId>: a spec's versions are one Query, newest last. */
export const openAPISpecVersionEntity = defineEntity<OpenAPISpecVersionItem>()({
  type: 'openapi-spec-version',
  key: ({ orgId, slug, versionId }: { orgId: string; slug: string; versionId: string }) => ({
    pk: `ORG#${orgId}`, sk: `${VERSION_PREFIX}${slug}#${versionId}`,
  }),
  partitions: {
    // Slugs have no '#' (functions/openapi/schemas.ts), so one slug's prefix never covers another's.
    ofSpec: (a: { orgId: string; slug: string }) => ({ pk: `ORG#${a.orgId}`, prefix: `${VERSION_PREFIX}${a.slug}#` }),
  },
});
