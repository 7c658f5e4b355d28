import * as v from 'valibot';
import type { QueueName } from '../config.ts';

/**
 * Every queued job, one valibot variant each, imported by the producer (enqueue) and
 * the worker (parse). A job names its queue through `queueOfJob`.
 */
export const jobSchema = v.variant('kind', [
  v.object({ kind: v.literal('purge-space'), spaceId: v.string() }),
  v.object({ kind: v.literal('git-sync'), spaceId: v.string(), operation: v.picklist(['import', 'export']), requestedAt: v.string() }),
  v.object({ kind: v.literal('translation-run'), organizationId: v.string(), translationId: v.string() }),
  v.object({ kind: v.literal('integration-event'), integrationName: v.string(), eventId: v.string() }),
]);

export type Job = v.InferOutput<typeof jobSchema>;
export type JobKind = Job['kind'];

export const queueOfJob: Record<JobKind, QueueName> = {
  'purge-space': 'jobs',
  'git-sync': 'git',
  'translation-run': 'translations',
  'integration-event': 'integration-events',
};
