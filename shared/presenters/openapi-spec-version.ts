import type { OpenAPISpecItem } from '../db/entities/openapi-spec.ts';
import type { OpenAPISpecVersionItem } from '../db/entities/openapi-spec-version.ts';
import { apiLocation } from './urls.ts';
import { publishedSpecUrl } from './openapi-spec.ts';
import type { OpenAPISpecContentOutput, OpenAPISpecVersionOutput } from './schemas/openapi-spec-version.ts';

const versionPath = (v: OpenAPISpecVersionItem) => `/orgs/${v.orgId}/openapi/${v.slug}/versions/${v.id}`;

/** Where the version's specification is: the URL it was fetched from, or (inline text) its content in the API. */
const sourceOf = (v: OpenAPISpecVersionItem) => v.sourceURL ?? apiLocation(`${versionPath(v)}/content`);

/** OpenAPISpecVersion. */
export function presentOpenAPISpecVersion(version: OpenAPISpecVersionItem): OpenAPISpecVersionOutput {
  return {
    object: 'openapi-spec-version',
    id: version.id,
    createdAt: version.createdAt,
    url: sourceOf(version),
    urls: { location: apiLocation(versionPath(version)) },
  };
}

/**
 * OpenAPISpecContent of a version, its processed `document` given. `urls.public`, as the
 * public interface says: for a public spec, its source URL when fetched from one, else the
 * reader's copy (the spec's `urls.published`); null for a private spec.
 */
export function presentOpenAPISpecContent(spec: OpenAPISpecItem, version: OpenAPISpecVersionItem, document: Record<string, unknown>): OpenAPISpecContentOutput {
  return {
    filesystem: [{ dir: '.', isEntrypoint: true, references: [], filename: 'openapi.json', specification: document }],
    urls: {
      source: sourceOf(version),
      public: spec.visibility === 'public' ? version.sourceURL ?? publishedSpecUrl(spec) : null,
    },
  };
}
