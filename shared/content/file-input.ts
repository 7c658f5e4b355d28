import { imageSize } from 'image-size';
import { badRequest } from '../http/errors.ts';
import { putBytesBlob } from './blobs.ts';
import type { ManifestFile } from './types.ts';

const MAX_BASE64_BYTES = 1024 * 1024;
const MAX_URL_BYTES = 20 * 1024 * 1024;

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
    const url = new URL(input.url!);
    // Never let a caller make the service fetch instance metadata or non-web schemes.
    if (!/^https?:$/.test(url.protocol) || /^(169\.254\.|\[?fd00:ec2::254)/.test(url.hostname) || url.hostname === 'metadata.google.internal') {
      throw badRequest(`${field}.url: must be a public http(s) URL`);
    }
    const response = await fetch(url, { signal: AbortSignal.timeout(10_000) }).catch((error: Error) => {
      throw badRequest(`${field}.url: could not be fetched (${error.message})`);
    });
    if (!response.ok) throw badRequest(`${field}.url: answered ${response.status}`);
    bytes = new Uint8Array(await response.arrayBuffer());
    if (bytes.length > MAX_URL_BYTES) throw badRequest(`${field}.url: the file is larger than 20 MB`);
    sourceType = response.headers.get('content-type')?.split(';')[0]?.trim();
  }
  const contentType = input.contentType ?? sourceType ?? contentTypeOf(input.name);
  const blob = await putBytesBlob(bytes, contentType);
  return { id, name: input.name, contentType, size: bytes.length, blob, ...dimensionsOf(bytes, contentType) };
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
