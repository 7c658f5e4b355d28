import type { Job } from '../../jobs/jobs.ts';
import { enqueue } from '../../jobs/enqueue.ts';
import { logger } from '../../observability/logger.ts';
import { getBytesBlob, getJsonBlob } from '../blobs.ts';
import { loadRevision } from '../revisions.ts';
import type { Manifest } from '../types.ts';
import { resizeToWebp } from './resize.ts';
import { isMissingObject } from './variant-read.ts';
import { hasImageVariant, putImageVariant } from './variant-write.ts';
import { variantWidthsOf } from './variants.ts';

type ImageToResize = Extract<Job, { kind: 'image-variants' }>['images'][number];

/** Images per `image-variants` job: each one is decoded once per missing width, so a job stays well inside the worker's timeout. */
export const IMAGES_PER_JOB = 5;

/**
 * `revision-images`: the revision's images that need variants and that none of its parents
 * had (those were asked for when the parent was made), sent on a few per `image-variants` job.
 */
export async function planRevisionImages(job: Extract<Job, { kind: 'revision-images' }>): Promise<void> {
  const manifest = await getJsonBlob<Manifest>(job.manifest);
  const known = new Set<string>();
  for (const parent of job.parents) {
    const loaded = await loadRevision(job.spaceId, parent);
    for (const file of loaded?.manifest.files ?? []) known.add(file.blob);
  }
  const images = new Map<string, ImageToResize>();
  for (const file of manifest.files) {
    if (known.has(file.blob) || images.has(file.blob) || variantWidthsOf(file).length === 0) continue;
    images.set(file.blob, { blob: file.blob, contentType: file.contentType, width: file.dimensions!.width, height: file.dimensions!.height });
  }
  const list = [...images.values()];
  for (let i = 0; i < list.length; i += IMAGES_PER_JOB) await enqueue({ kind: 'image-variants', images: list.slice(i, i + IMAGES_PER_JOB) });
}

/**
 * `image-variants`: makes each image's missing variants. Idempotent (a stored variant is
 * skipped). An image that cannot be resized (corrupt, over the pixel limit, its blob gone)
 * is logged and skipped: retrying would fail the same way. Storage errors throw, so SQS
 * retries the job (then its DLQ).
 */
export async function makeImageVariants(job: Extract<Job, { kind: 'image-variants' }>): Promise<void> {
  for (const image of job.images) await makeVariantsOf(image);
}

async function makeVariantsOf(image: ImageToResize): Promise<void> {
  const widths = variantWidthsOf({ contentType: image.contentType, dimensions: { width: image.width, height: image.height } });
  const missing: number[] = [];
  for (const width of widths) if (!(await hasImageVariant(image.blob, width))) missing.push(width);
  if (missing.length === 0) return;
  let bytes: Uint8Array;
  try {
    bytes = await getBytesBlob(image.blob);
  } catch (error) {
    if (!isMissingObject(error)) throw error;
    logger.warn('image variant skipped: source blob missing', { blob: image.blob });
    return;
  }
  for (const width of missing) {
    let webp: Buffer;
    try {
      webp = await resizeToWebp(bytes, width);
    } catch (error) {
      logger.warn('image variant skipped: the image cannot be resized', { blob: image.blob, width, error: error as Error });
      return;
    }
    await putImageVariant(image.blob, width, webp);
  }
}
