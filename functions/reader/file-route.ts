import type { Context } from 'hono';
import { getBytesBlob } from '../../shared/content/blobs.ts';
import type { Manifest, ManifestFile } from '../../shared/content/types.ts';
import { readImageVariant } from '../../shared/content/images/variant-read.ts';
import { parseVariantSegment, variantWidthsOf } from '../../shared/content/images/variants.ts';
import type { ReaderSpace } from '../../shared/reader/site.ts';
import { blobDownloadUrl } from '../../shared/content/blob-urls.ts';
import { MAX_BINARY_ANSWER_BYTES } from '../../shared/http/oversized-answers.ts';

/**
 * Files of a site space (images, downloads) at `<space>/~files/<blob>/<name>`. The blob is
 * the hash of the bytes, so a URL always means the same bytes: public sites cache it for a
 * year, and pages never hold presigned storage URLs that expire while the page stays cached.
 * Visibility is checked by the caller like for pages (share links, visitor tokens).
 *
 * Resized variants of images (shared/content/images) are `<space>/~files/<blob>/w<width>/<name>`
 * (`variantHref`), WebP, cached like the original. Until the images worker has made one, its
 * URL answers the original's bytes, cached briefly so the variant replaces them once it
 * exists: a page's HTML never depends on the job having run, and its `srcset` never 404s.
 */
export const fileHref = (space: ReaderSpace, file: ManifestFile) =>
  `${space.basePath}/~files/${file.blob}/${encodeURIComponent(file.name)}`;

/**
 * Image types a browser shows inline; everything else is a download. SVG (GitBook's drawings)
 * is shown too: as an `<img>` it runs nothing, and opened on its own it is held by the
 * response's sandbox policy below (no script, an opaque origin).
 */
const INLINE_TYPES = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'image/avif', 'image/svg+xml']);

/** Seconds a variant URL answered with the original (the variant is not made yet) may be cached. */
const PENDING_VARIANT_MAX_AGE = 300;

const notFound = (c: Context) => c.html('<!doctype html><title>Not found</title><p>There is no such file.</p>', 404, { 'Cache-Control': 'no-store' });

export async function serveFile(c: Context, manifest: Manifest, pagePath: string, access: { shared: boolean }) {
  // `~files/<blob>/<name>` or `~files/<blob>/w<width>/<name>` (names are URL-encoded: no `/`).
  const [, blob = '', ...rest] = pagePath.split('/');
  const file = manifest.files.find((f) => f.blob === blob);
  if (!file || rest.length > 2) return notFound(c);
  const width = rest.length === 2 ? parseVariantSegment(rest[0]!) : undefined;
  if (rest.length === 2 && width === undefined) return notFound(c);
  const cacheControl = access.shared ? 'private, max-age=3600' : 'public, max-age=31536000, immutable';
  const ifNoneMatch = (etag: string) => c.req.header('if-none-match')?.split(',').some((t) => t.trim().replace(/^W\//, '') === etag) ?? false;

  if (width !== undefined && variantWidthsOf(file).includes(width)) {
    const etag = `"${file.blob.slice(0, 40)}-w${width}"`;
    const headers = {
      'Content-Type': 'image/webp',
      'Content-Disposition': `inline; filename*=UTF-8''${encodeURIComponent(file.name.replace(/\.[^.]*$/, ''))}.webp`,
      'Cache-Control': cacheControl,
      'Content-Security-Policy': "default-src 'none'; sandbox",
      ETag: etag,
    };
    if (ifNoneMatch(etag)) return c.body(null, 304, headers);
    const variant = await readImageVariant(file.blob, width);
    if (variant) return c.body(variant as Uint8Array<ArrayBuffer>, 200, headers);
  }

  const inline = INLINE_TYPES.has(file.contentType.toLowerCase());
  const etag = `"${file.blob.slice(0, 40)}"`;
  const headers = {
    'Content-Type': inline ? file.contentType : 'application/octet-stream',
    'Content-Disposition': `${inline ? 'inline' : 'attachment'}; filename*=UTF-8''${encodeURIComponent(file.name)}`,
    // A variant URL answering the original (not made yet, or none for this image) is kept briefly.
    'Cache-Control': width !== undefined ? `${access.shared ? 'private' : 'public'}, max-age=${PENDING_VARIANT_MAX_AGE}` : cacheControl,
    // Whatever the bytes are, nothing in them runs on the reader's origin.
    'Content-Security-Policy': "default-src 'none'; sandbox",
    ETag: etag,
  };
  if (ifNoneMatch(etag)) return c.body(null, 304, headers);
  if (file.size > MAX_BINARY_ANSWER_BYTES) {
    // Larger than a Lambda answer can carry: sent from the bucket, named and typed as here. The
    // redirect is cached briefly (the presigned URL works for an hour); an SVG opened from the
    // bucket's origin is a download, as the sandbox policy above cannot go with it.
    const disposition = inline && file.contentType.toLowerCase() !== 'image/svg+xml' ? 'inline' : 'attachment';
    const location = await blobDownloadUrl(file.blob, headers['Content-Type'], file.name, disposition);
    return c.body(null, 302, { Location: location, 'Cache-Control': `${access.shared ? 'private' : 'public'}, max-age=${PENDING_VARIANT_MAX_AGE}` });
  }
  const bytes = await getBytesBlob(file.blob);
  return c.body(bytes as Uint8Array<ArrayBuffer>, 200, headers);
}
