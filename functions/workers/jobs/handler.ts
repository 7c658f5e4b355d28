import { createQueueHandler } from '../../../shared/jobs/queue-handler.ts';
import { purgeSpace } from '../../../shared/commands/spaces/purge.ts';
import { processOpenAPISpec } from '../../../shared/commands/openapi/process.ts';
import { reclusterConversations } from '../../../shared/commands/conversations/recluster.ts';
import { blobSweepJobBudget, sweepBlobs } from '../../../shared/content/blob-sweep.ts';
import { enqueue } from '../../../shared/jobs/enqueue.ts';
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
    // A share of the run; the job it sends continues it (unless another invocation already does).
    const { ms, ...budget } = blobSweepJobBudget;
    const report = await sweepBlobs({ ...budget, untilMs: Date.now() + ms });
    logger.info('blob sweep', { ...report });
    if (!report.done && !report.superseded) await enqueue({ kind: 'blob-sweep' });
  },
});
