import { createQueueHandler } from '../../../shared/jobs/queue-handler.ts';

/**
 * Consumer of the `git` queue: Git import and export (implemented by the Git sync issue).
 * Until then its jobs fail, so they are retried and end in the queue's DLQ instead of being lost.
 */
export const handler = createQueueHandler({
  'git-sync': async () => {
    throw new Error('git-sync jobs are not implemented yet');
  },
});
