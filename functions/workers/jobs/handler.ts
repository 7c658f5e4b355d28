import { createQueueHandler } from '../../../shared/jobs/queue-handler.ts';
import { purgeSpace } from '../../../shared/commands/purge-space.ts';
import { processOpenAPISpec } from '../../../shared/commands/openapi-process.ts';

/** Consumer of the general `jobs` queue (slow work that is not Git, translation or events). */
export const handler = createQueueHandler({
  'purge-space': async (job) => {
    await purgeSpace(job.spaceId);
  },
  'openapi-process': async (job) => {
    await processOpenAPISpec(job.organizationId, job.slug, job.processId);
  },
});
