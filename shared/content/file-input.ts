import { imageSize } from 'image-size';
import { badRequest } from '../http/errors.ts';
import { egressFetch, type EgressLimits } from '../net/egress.ts';
import { checkEgressUrlSyntax } from '../net/destination.ts';
import { isEgressError } from '../net/egress-error.ts';
import { putBytesBlob } from './blobs.ts';
import type { ManifestFile } from './types.ts';

const MAX_BASE64_BYTES = 1024 * 1024;

/** Caps of fetching a file by URL (an object so tests can lower them). */
export const fileUrlLimits: EgressLimits = { maxBytes: 20 * 1024 * 1024, timeoutMs: 15_000, connectTimeoutMs: 5_000, maxRedirects: 5 };

const byExtension: Record<string, string> = {
  png: 'image/png', jpg: 'image/jpeg', jpeg: 'image/jpeg', gif: 'image/gif', svg: 'image/svg+xml', webp: 'image/webp',
  pdf: 'application/pdf', txt: 'text/plain', md: 'text/markdown', json: 'application/json', zip: 'application/zip',
  yaml: 'application/yaml', yml: 'application/yaml', csv: 'text/csv', mp4: 'video/mp4',
};

/** Content type of a file name from its extension (case-insensitive); application/octet-stream when unknown. */
export function contentTypeOf(name: string): string {
  return byExtension[name.split('.').pop()?.toLowerCase() ?? ''] ?? 'application/octet-stream';
}

export interface FileInput {
  name: string;
  contentType?: string;
  base64?: string;
  url?: string;
}

/**
 * Stores an uploaded file's bytes as a blob and describes it: size, content type (given,
 * from the source, or from the extension) and, for images, dimensions.
 */
export async function storeFileInput(input: FileInput, id: string, field: string): Promise<ManifestFile> {
  let bytes: Uint8Array;
  let sourceType: string | undefined;
  if (input.base64 !== undefined) {
    bytes = Buffer.from(input.base64, 'base64');
    if (bytes.length > MAX_BASE64_BYTES) throw badRequest(`${field}.base64: must decode to at most 1 MB`);
  } else {
    ({ bytes, sourceType } = await fetchFileUrl(input.url!, `${field}.url`));
  }
  const contentType = input.contentType ?? sourceType ?? contentTypeOf(input.name);
  const blob = await putBytesBlob(bytes, contentType);
  return { id, name: input.name, contentType, size: bytes.length, blob, ...dimensionsOf(bytes, contentType) };
}

/**
 * Fetches a file URL through the egress guard, during the request: any refusal or
 * failure is a 400 naming the field. Literal private addresses and other schemes are
 * refused before any connection; the guarded fetch checks every resolved address.
 */
async function fetchFileUrl(url: string, field: string): Promise<{ bytes: Uint8Array; sourceType?: string }> {
  try {
    checkEgressUrlSyntax(url, field);
    const response = await egressFetch({ url, label: field, ...fileUrlLimits });
    if (response.status < 200 || response.status > 299) {
      response.cancel();
      throw badRequest(`${field}: answered HTTP ${response.status}`);
    }
    const bytes = await response.bytes();
    return { bytes, sourceType: response.headers['content-type']?.split(';')[0]?.trim() || undefined };
  } catch (error) {
    if (isEgressError(error)) throw badRequest(error.message);
    throw error;
  }
}

/** `{dimensions}` of an image (any format image-size reads), `{}` for anything else or unreadable bytes. */
export function dimensionsOf(bytes: Uint8Array, contentType: string): { dimensions?: { width: number; height: number } } {
  if (!contentType.startsWith('image/')) return {};
  try {
    const { width, height } = imageSize(bytes);
    return width && height ? { dimensions: { width, height } } : {};
  } catch {
    return {};
  }
}
