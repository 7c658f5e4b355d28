import { createQueueHandler } from '../../../shared/jobs/queue-handler.ts';
import { purgeSpace } from '../../../shared/commands/spaces/purge.ts';
import { processOpenAPISpec } from '../../../shared/commands/openapi/process.ts';
import { reclusterConversations } from '../../../shared/commands/conversations/recluster.ts';
import { sweepBlobs } from '../../../shared/content/blob-sweep.ts';
import { logger } from '../../../shared/observability/logger.ts';

/** Consumer of the general `jobs` queue (slow work that is not Git, translation or events). */
export const handler = createQueueHandler('jobs', {
  'purge-space': async (job) => {
    await purgeSpace(job.spaceId);
  },
  'openapi-process': async (job) => {
    await processOpenAPISpec(job.organizationId, job.slug, job.processId);
  },
  'conversations-cluster': async (job) => {
    await reclusterConversations(job.organizationId, job.ingestedAt);
  },
  'blob-sweep': async () => {
    logger.info('blob sweep', { ...(await sweepBlobs()) });
  },
});
