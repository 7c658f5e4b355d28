import type { Context } from 'hono';
import { getBytesBlob } from '../../shared/content/blobs.ts';
import type { Manifest, ManifestFile } from '../../shared/content/types.ts';
import type { ReaderSpace } from '../../shared/reader/site.ts';

/**
 * Files of a site space (images, downloads) at `<space>/~files/<blob>/<name>`. The blob is
 * the hash of the bytes, so a URL always means the same bytes: public sites cache it for a
 * year, and pages never hold presigned storage URLs that expire while the page stays cached.
 * Visibility is checked by the caller like for pages (share links, visitor tokens).
 */
export const fileHref = (space: ReaderSpace, file: ManifestFile) =>
  `${space.basePath}/~files/${file.blob}/${encodeURIComponent(file.name)}`;

/** Image types a browser shows inline; everything else is a download. */
const INLINE_TYPES = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'image/avif']);

export async function serveFile(c: Context, manifest: Manifest, pagePath: string, access: { shared: boolean }) {
  const blob = pagePath.split('/')[1] ?? '';
  const file = manifest.files.find((f) => f.blob === blob);
  if (!file) return c.html('<!doctype html><title>Not found</title><p>There is no such file.</p>', 404, { 'Cache-Control': 'no-store' });
  const inline = INLINE_TYPES.has(file.contentType.toLowerCase());
  const etag = `"${file.blob.slice(0, 40)}"`;
  const headers = {
    'Content-Type': inline ? file.contentType : 'application/octet-stream',
    'Content-Disposition': `${inline ? 'inline' : 'attachment'}; filename*=UTF-8''${encodeURIComponent(file.name)}`,
    'Cache-Control': access.shared ? 'private, max-age=3600' : 'public, max-age=31536000, immutable',
    // Whatever the bytes are, nothing in them runs on the reader's origin.
    'Content-Security-Policy': "default-src 'none'; sandbox",
    ETag: etag,
  };
  if (c.req.header('if-none-match')?.split(',').some((t) => t.trim().replace(/^W\//, '') === etag)) return c.body(null, 304, headers);
  const bytes = await getBytesBlob(file.blob);
  return c.body(bytes as Uint8Array<ArrayBuffer>, 200, headers);
}
