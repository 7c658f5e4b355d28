import { createQueueHandler } from '../../../shared/jobs/queue-handler.ts';
import { makeImageVariants, planRevisionImages } from '../../../shared/content/images/generate.ts';

/**
 * Consumer of the `images` queue: resized variants of revisions' images (sharp, a native
 * module: in AWS this runs in its own container image, infra/image-worker.Dockerfile).
 */
export const handler = createQueueHandler('images', {
  'revision-images': planRevisionImages,
  'image-variants': makeImageVariants,
});
