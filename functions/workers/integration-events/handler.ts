import { createQueueHandler } from '../../../shared/jobs/queue-handler.ts';
import { dispatchIntegrationEvent } from '../../../shared/integrations/dispatch.ts';

/** Consumer of the `integration-events` queue: delivers integration events (shared/integrations/dispatch.ts). */
export const handler = createQueueHandler('integration-events', {
  'integration-event': async (job) => dispatchIntegrationEvent(job.integrationName, job.eventId),
});
