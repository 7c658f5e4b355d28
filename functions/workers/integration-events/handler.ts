import { createQueueHandler } from '../../../shared/jobs/queue-handler.ts';

/**
 * Consumer of the `integration-events` queue: Integration event dispatch (implemented by the integrations issue).
 * Until then its jobs fail, so they are retried and end in the queue's DLQ instead of being lost.
 */
export const handler = createQueueHandler({
  'integration-event': async () => {
    throw new Error('integration-event jobs are not implemented yet');
  },
});
