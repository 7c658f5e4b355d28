/**
 * OpenAPI specs (spec 4.6), in the organization's partition, keyed by slug (unique per org).
 */
import { defineEntity } from '../entity.ts';

const OPENAPI_PREFIX = 'OPENAPI#';

/** Public interface values of `processingState`. */
export type OpenAPIProcessingState = 'pending' | 'progress' | 'complete';
export type OpenAPIProcessErrorCode = 'FETCH_TIMEOUT' | 'FETCH_ERROR' | 'PARSE_ERROR';
export type OpenAPIVisibility = 'private' | 'public';

export interface OpenAPISpecItem {
  id: string;
  orgId: string;
  slug: string;
  createdAt: string;
  updatedAt: string;
  /** `source.url` of the last create/PUT (absent for inline text sources). */
  sourceURL?: string;
  /** Credentials that were in `source.url`, sealed (shared/net/url-credentials.ts); never presented. */
  sourceCredentials?: string;
  /** Blob hash (shared/content/blobs.ts) of the inline `source.text` of the last create/PUT. */
  sourceTextBlob?: string;
  processingState: OpenAPIProcessingState;
  visibility: OpenAPIVisibility;
  /**
   * Id of the processing run the spec waits for: every create/PUT sets a new one and the
   * worker only writes results for the run it was queued for (a superseded job is a no-op).
   */
  processId: string;
  /** Id of the last successfully processed version, and the blob holding its document. */
  lastVersion?: string;
  lastVersionBlob?: string;
  lastProcessedAt?: string;
  lastProcessErrorCode?: OpenAPIProcessErrorCode;
  lastProcessedErrors?: { message: string; code?: string }[];
  /** Errors before truncation of lastProcessedErrors. */
  lastProcessedErrorCount?: number;
}

/** ORG#<org> / OPENAPI#<slug>: an org's specs are one Query (sk begins_with OPENAPI#), by slug. */
export const openAPISpecEntity = defineEntity<OpenAPISpecItem>()({
  type: 'openapi-spec',
  key: ({ orgId, slug }: { orgId: string; slug: string }) => ({ pk: `ORG#${orgId}`, sk: `${OPENAPI_PREFIX}${slug}` }),
  partitions: {
    inOrg: (a: { orgId: string }) => ({ pk: `ORG#${a.orgId}`, prefix: OPENAPI_PREFIX }),
  },
});

