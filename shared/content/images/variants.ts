import type { ManifestFile } from '../types.ts';

/**
 * Resized image variants (WebP) of a revision's raster images, so a phone does not download
 * a 2,750 px screenshot. The widths follow the reader's content column
 * (shared/reader/assets/style.ts: `main` is at most 52rem with 2.5rem padding each side, so
 * the column is 47rem = 752 px) at 1x and 2x. A variant exists only for widths below the
 * image's own; the original is the largest candidate of every `srcset`.
 */
export const VARIANT_WIDTHS = [752, 1504] as const;

/** The column's width as the browser picks from `srcset`: the viewport minus the mobile padding (1.1rem each side) up to 52rem, else 47rem. */
export const VARIANT_SIZES = '(max-width: 52rem) calc(100vw - 2.2rem), 47rem';

/** Images larger than this are left alone (decoding one takes ~4 bytes a pixel): sharp's `limitInputPixels` too. */
export const MAX_VARIANT_SOURCE_PIXELS = 50_000_000;

/** Raster types sharp resizes well; GIF (animation) and SVG (vector) stay as they are. */
const RASTER_TYPES = new Set(['image/png', 'image/jpeg', 'image/webp']);

/** The variant widths a file has (or will have once the job ran): none for non-raster, small or oversized images. */
export function variantWidthsOf(file: Pick<ManifestFile, 'contentType' | 'dimensions'>): number[] {
  const size = file.dimensions;
  if (!size || !RASTER_TYPES.has(file.contentType.toLowerCase())) return [];
  if (size.width * size.height > MAX_VARIANT_SOURCE_PIXELS) return [];
  return VARIANT_WIDTHS.filter((width) => width < size.width);
}

/**
 * The URL of a variant from the original's (`<space>/~files/<blob>/<name>`): the width is a
 * path segment before the name, `<space>/~files/<blob>/w<width>/<name>`, so the name stays
 * the last segment and the URL still names the bytes (blob and width).
 */
export function variantHref(originalHref: string, width: number): string {
  const slash = originalHref.lastIndexOf('/');
  return `${originalHref.slice(0, slash)}/w${width}${originalHref.slice(slash)}`;
}

/** The width a `w<width>` path segment asks for, when it is one of the declared widths. */
export function parseVariantSegment(segment: string): number | undefined {
  const match = /^w(\d{1,5})$/.exec(segment);
  const width = match ? Number(match[1]) : undefined;
  return width !== undefined && (VARIANT_WIDTHS as readonly number[]).includes(width) ? width : undefined;
}

/** `srcset` and `sizes` of an image, or undefined when it has no variant (the plain `src` is all there is). */
export function imageSources(file: Pick<ManifestFile, 'contentType' | 'dimensions'>, originalHref: string): { srcSet: string; sizes: string } | undefined {
  const widths = variantWidthsOf(file);
  if (widths.length === 0 || !file.dimensions) return undefined;
  const candidates = [...widths.map((w) => `${variantHref(originalHref, w)} ${w}w`), `${originalHref} ${file.dimensions.width}w`];
  return { srcSet: candidates.join(', '), sizes: VARIANT_SIZES };
}
