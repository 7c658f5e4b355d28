import { createQueueHandler } from '../../../shared/jobs/queue-handler.ts';

/**
 * Consumer of the `translations` queue: Translation runs (implemented by the translations issue).
 * Until then its jobs fail, so they are retried and end in the queue's DLQ instead of being lost.
 */
export const handler = createQueueHandler({
  'translation-run': async () => {
    throw new Error('translation-run jobs are not implemented yet');
  },
});
