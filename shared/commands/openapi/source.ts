import type { OpenAPISpecItem } from '../../db/entities/openapi-spec.ts';
import { putBytesBlob } from '../../content/blobs.ts';
import { badRequest } from '../../http/errors.ts';
import { checkEgressUrlSyntax } from '../../net/destination.ts';
import { isEgressError } from '../../net/egress-error.ts';
import { sealCredentials, splitCredentials } from '../../net/url-credentials.ts';

/** A spec's source as a request gives it (URL or inline text) and as it is stored. */

export type OpenAPISource = { url: string } | { text: string };

export type SourceFields = Pick<OpenAPISpecItem, 'sourceURL' | 'sourceCredentials' | 'sourceTextBlob'>;

/** What the sealed credentials of a spec are bound to: they open for this spec only. */
export const credentialsRecordId = (orgId: string, slug: string) => `openapi:${orgId}/${slug}`;

/**
 * Stored source fields of a request's `source`: inline text goes to a blob (items stay
 * small); a URL is refused at once when it names a non-public address literally, and
 * its credentials are sealed apart from it (the stored and presented URL has none).
 */
export async function sourceFields(orgId: string, slug: string, source: OpenAPISource): Promise<SourceFields> {
  if (!('url' in source)) return { sourceTextBlob: await putBytesBlob(new TextEncoder().encode(source.text), 'text/plain; charset=utf-8') };
  try {
    checkEgressUrlSyntax(source.url, 'source.url');
  } catch (error) {
    if (isEgressError(error)) throw badRequest(error.message);
    throw error;
  }
  const { url, credentials } = splitCredentials(source.url);
  return { sourceURL: url, ...(credentials ? { sourceCredentials: await sealCredentials(credentials, credentialsRecordId(orgId, slug)) } : {}) };
}
