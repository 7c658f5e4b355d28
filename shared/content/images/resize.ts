import sharp from 'sharp';
import { MAX_VARIANT_SOURCE_PIXELS } from './variants.ts';

/** WebP quality of the variants: screenshots and photos stay sharp at a fraction of PNG's bytes. */
const WEBP_QUALITY = 80;

/**
 * One WebP variant of an image at `width` (never enlarged), turned upright by its EXIF
 * orientation as browsers show the original. sharp refuses inputs over the pixel limit
 * and throws on bytes it cannot decode: the caller decides what a failure means.
 */
export async function resizeToWebp(bytes: Uint8Array, width: number): Promise<Buffer> {
  return sharp(bytes, { limitInputPixels: MAX_VARIANT_SOURCE_PIXELS, failOn: 'error' })
    .rotate()
    .resize({ width, withoutEnlargement: true })
    .webp({ quality: WEBP_QUALITY })
    .toBuffer();
}
