import type { OpenAPISpecItem } from '../db/entities/openapi-spec.ts';
import type { Role } from '../http/schemas.ts';
import { atLeast } from '../policies/roles.ts';
import { apiLocation, appLocation } from './urls.ts';
import { config } from '../config.ts';
import { withoutCredentials } from '../net/url-credentials.ts';
import type { OpenAPISpecOutput } from './schemas/openapi-spec.ts';

/** Errors kept on the spec (lastProcessedErrors is truncated to this many; the count is not). */
export const MAX_PROCESS_ERRORS = 20;

/** Where the reader serves a public spec (functions/reader/openapi-spec.ts). */
export const publishedSpecUrl = (spec: Pick<OpenAPISpecItem, 'orgId' | 'slug'>) => `${config.apiUrl}/s/~openapi/${spec.orgId}/${spec.slug}`;

/**
 * OpenAPISpec (spec 2.11). `permissions`: view for any non-guest member (who may read
 * specs), edit for role create and above (organization `createOpenAPISpec`).
 * `urls.published` only when the spec is public: where the reader serves its document.
 */
export function presentOpenAPISpec(spec: OpenAPISpecItem, context: { role: Role | null }): OpenAPISpecOutput {
  const path = `/orgs/${spec.orgId}/openapi/${spec.slug}`;
  return {
    object: 'openapi-spec',
    id: spec.id,
    createdAt: spec.createdAt,
    updatedAt: spec.updatedAt,
    slug: spec.slug,
    // Stored URLs carry no credentials; older records might: they are never shown.
    ...(spec.sourceURL !== undefined ? { sourceURL: withoutCredentials(spec.sourceURL) } : {}),
    processingState: spec.processingState,
    visibility: spec.visibility,
    ...(spec.lastVersion !== undefined ? { lastVersion: spec.lastVersion } : {}),
    ...(spec.lastProcessedAt !== undefined ? { lastProcessedAt: spec.lastProcessedAt } : {}),
    ...(spec.lastProcessErrorCode !== undefined ? { lastProcessErrorCode: spec.lastProcessErrorCode } : {}),
    lastProcessedErrors: spec.lastProcessedErrors ?? [],
    lastProcessedErrorCount: spec.lastProcessedErrorCount ?? spec.lastProcessedErrors?.length ?? 0,
    permissions: { view: context.role !== null, edit: atLeast(context.role, 'create') },
    urls: {
      location: apiLocation(path),
      app: appLocation(`/o/${spec.orgId}/openapi/${spec.slug}`),
      // Served by the reader (functions/reader/openapi-spec.ts).
      ...(spec.visibility === 'public' ? { published: publishedSpecUrl(spec) } : {}),
    },
  };
}
