import * as v from 'valibot';
import type { QueueName } from '../config.ts';

/**
 * Every queued job, one valibot variant each, imported by the producer (enqueue) and
 * the worker (parse). A job names its queue through `queueOfJob`.
 */
export const jobSchema = v.variant('kind', [
  v.object({ kind: v.literal('purge-space'), spaceId: v.string() }),
  /**
   * Git import/export (shared/git/sync.ts). Basic-auth credentials of the URL travel sealed
   * in `sealedCredentials` (AES-GCM, shared/net/url-credentials.ts, bound to the operation
   * id), never in clear in the queue, and are stripped from everything stored or logged.
   * `operationId` keys the operation record, so a redelivered message runs once.
   * Fields are optional for the schema's sake; the worker fails a job that lacks url/ref.
   */
  v.object({
    kind: v.literal('git-sync'),
    spaceId: v.string(),
    operation: v.picklist(['import', 'export']),
    requestedAt: v.string(),
    operationId: v.optional(v.string()),
    requestedBy: v.optional(v.string()),
    url: v.optional(v.string()),
    sealedCredentials: v.optional(v.string()),
    ref: v.optional(v.string()),
    commitMessage: v.optional(v.string()),
    repoProjectDirectory: v.optional(v.string()),
    repoTreeURL: v.optional(v.string()),
    repoCommitURL: v.optional(v.string()),
    repoCacheID: v.optional(v.string()),
    timestamp: v.optional(v.string()),
    force: v.optional(v.boolean()),
    standalone: v.optional(v.boolean()),
    gitInfo: v.optional(v.object({ provider: v.optional(v.string()), url: v.optional(v.string()) })),
  }),
  v.object({ kind: v.literal('translation-run'), organizationId: v.string(), translationId: v.string() }),
  v.object({ kind: v.literal('integration-event'), integrationName: v.string(), eventId: v.string() }),
  /** Fetch/parse/store of an OpenAPI spec (shared/commands/openapi/process.ts); `processId` names the run. */
  v.object({ kind: v.literal('openapi-process'), organizationId: v.string(), slug: v.string(), processId: v.string() }),
  /** Re-clusters an organization's conversation issues (shared/commands/conversations/recluster.ts); `ingestedAt` of the issue that asked. */
  v.object({ kind: v.literal('conversations-cluster'), organizationId: v.string(), ingestedAt: v.string() }),
  /** Mark-and-sweep of unreferenced blobs (shared/content/blob-sweep.ts); sent daily by an EventBridge rule, or `npm run admin -- blobs sweep`. */
  v.object({ kind: v.literal('blob-sweep') }),
  /**
   * Resized image variants (shared/content/images): sent when a revision is prepared whose
   * manifest has images to resize; the worker keeps the images its parents did not have
   * and sends them on in `image-variants` jobs of a few images each (bounded work per job).
   */
  v.object({ kind: v.literal('revision-images'), spaceId: v.string(), manifest: v.string(), parents: v.array(v.string()) }),
  v.object({
    kind: v.literal('image-variants'),
    images: v.pipe(v.array(v.object({ blob: v.string(), contentType: v.string(), width: v.number(), height: v.number() })), v.maxLength(20)),
  }),
]);

export type Job = v.InferOutput<typeof jobSchema>;
export type JobKind = Job['kind'];

export const queueOfJob: Record<JobKind, QueueName> = {
  'purge-space': 'jobs',
  'git-sync': 'git',
  'translation-run': 'translations',
  'integration-event': 'integration-events',
  'openapi-process': 'jobs',
  'conversations-cluster': 'jobs',
  'blob-sweep': 'jobs',
  'revision-images': 'images',
  'image-variants': 'images',
};
