import { createQueueHandler } from '../../../shared/jobs/queue-handler.ts';
import { runTranslationJob } from '../../../shared/commands/translations/run.ts';

/**
 * Consumer of the `translations` queue: translation runs (shared/commands/translations/run.ts).
 * A job for a translation that does not exist fails (retried, then the DLQ); redelivered jobs
 * of a completed run are no-ops.
 */
export const handler = createQueueHandler('translations', {
  'translation-run': async (job) => runTranslationJob(job.organizationId, job.translationId),
});
