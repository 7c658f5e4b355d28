import { enqueue } from '../../jobs/enqueue.ts';
import { logger } from '../../observability/logger.ts';
import type { Manifest } from '../types.ts';
import { variantWidthsOf } from './variants.ts';

/**
 * Asks for the variants of a revision's images (the `revision-images` job), called once
 * where every revision is prepared (shared/content/revisions.ts), so Git imports, uploads,
 * merges and templates all reach it. A manifest with nothing to resize sends nothing.
 * Variants are an optimization the reader does without (it answers the original), so a
 * failed send is logged and the revision is written all the same.
 */
export async function requestImageVariants(revision: { spaceId: string; manifest: string; parents: string[] }, manifest: Manifest): Promise<void> {
  if (!manifest.files.some((file) => variantWidthsOf(file).length > 0)) return;
  try {
    await enqueue({ kind: 'revision-images', spaceId: revision.spaceId, manifest: revision.manifest, parents: revision.parents });
  } catch (error) {
    logger.warn('image variants not requested', { spaceId: revision.spaceId, manifest: revision.manifest, error: error as Error });
  }
}
