import * as v from 'valibot';
import { timestampSchema } from './common.ts';

/** Git providers the public description documents (`GitSyncProvider`). */
export const gitSyncProviders = ['github', 'gitlab', 'github-legacy'] as const;
export type GitSyncProvider = (typeof gitSyncProviders)[number];

const count = v.pipe(v.number(), v.integer(), v.minValue(0));

/**
 * How far a running (or finished) operation got: markdown files (pages and reusable
 * contents) and files done of their totals, bytes read from the repository (import) or
 * written to it (export). Saved at most every second or every 50 items.
 */
const progressSchema = v.object({ pagesDone: count, pagesTotal: count, filesDone: count, filesTotal: count, bytes: count });

const operationSchema = v.nullable(v.object({
  id: v.string(),
  operation: v.picklist(['import', 'export']),
  status: v.picklist(['queued', 'running', 'succeeded', 'failed', 'skipped']),
  stage: v.optional(v.string()),
  message: v.optional(v.string()),
  url: v.string(),
  ref: v.string(),
  requestedAt: timestampSchema,
  timestamp: v.optional(timestampSchema),
  startedAt: v.optional(timestampSchema),
  finishedAt: v.optional(timestampSchema),
  attempts: v.pipe(v.number(), v.integer()),
  commit: v.optional(v.string()),
  revision: v.optional(v.string()),
  progress: v.optional(progressSchema),
}));

/** The public `GitSyncState.operation`: the latest operation as GitBook's clients read it. */
const publicOperationSchema = v.optional(v.object({
  state: v.picklist(['running', 'failure', 'success', 'timeout']),
  direction: v.picklist(['import', 'export']),
  startedAt: timestampSchema,
  endedAt: v.optional(timestampSchema),
  error: v.optional(v.string()),
}));

/**
 * Git info (spec 2.14, public `GitSyncState`, its `operation` included) plus `ref`, `commit` and the last and running
 * operations. Git sync is set up per space: the installation is the space's own
 * (`installationId` = the space id), `active` once an import or export was requested,
 * `pending` before. `updatedAt` only once there is something to date.
 */
export const gitInfoSchema = v.object({
  repoName: v.string(),
  installationId: v.string(),
  installationStatus: v.picklist(['active', 'pending', 'unauthenticated']),
  installationProvider: v.picklist(gitSyncProviders),
  integration: v.string(),
  url: v.string(),
  updatedAt: v.optional(timestampSchema),
  ref: v.optional(v.string()),
  commit: v.optional(v.string()),
  operation: publicOperationSchema,
  operations: v.object({ last: operationSchema, running: operationSchema }),
});
export type GitInfoOutput = v.InferOutput<typeof gitInfoSchema>;
