/**
 * The git worker's job: import a branch into a space (a new revision, made primary in a
 * transaction unless `standalone`) or export the space's primary content to a branch.
 * Idempotent under redelivery: the operation record says when a job is done, and the
 * import's transaction only succeeds once per operation. Every failure is recorded on the
 * operation (clear message, URL without credentials) and rethrown, so SQS retries it and
 * finally moves it to the DLQ; a refusal of the egress guard (address not allowed, over the
 * size cap, too many redirects), a branch to import that does not exist and an export's
 * conflict are final and are not retried.
 */
import { transact, type Write } from '../db/writes.ts';
import { movePrimaryRevision } from '../content/primary-revision.ts';
import { nowIso } from '../clock.ts';
import { spaceEntity, type SpaceItem } from '../db/entities/space.ts';
import { gitInfoEntity, gitOperationEntity, type GitOperationItem } from '../db/entities/git-info.ts';
import { loadRevision, prepareRevision } from '../content/revisions.ts';
import { revisionEntity } from '../db/entities/revision.ts';
import type { Job } from '../jobs/jobs.ts';
import { Checkout, FinalError, redactText, redactUrl, repoNameOf, type FlatEntry } from './repo.ts';
import type { Manifest } from '../content/types.ts';
import { importRepository } from './import.ts';
import { exportManifest } from './export.ts';
import { mergeTrees } from './merge-trees.ts';
import { getGitInfo, getOperation, gitProviderOf, newOperationId, updateOperation } from './state.ts';
import { contentUpdated, emitOrganizationEvent, gitSyncCompleted, gitSyncStarted } from '../integrations/events.ts';
import { ApiError } from '../http/errors.ts';
import { isEgressError, type EgressError } from '../net/egress-error.ts';
import { openCredentials, withCredentials as putCredentials } from '../net/url-credentials.ts';
import { ProgressTracker } from './progress.ts';
import { StageWriter } from './stages.ts';
import { MAX_RECEIVE_COUNT } from '../jobs/redrive.ts';
import { logger } from '../observability/logger.ts';

export type GitSyncJob = Extract<Job, { kind: 'git-sync' }>;

class Skip extends Error {}

/** Attempts of a sync: the git queue's receive limit, after which SQS moves the job to the DLQ. */
export const MAX_SYNC_ATTEMPTS = MAX_RECEIVE_COUNT;

export async function runGitSync(sealedJob: GitSyncJob): Promise<void> {
  const operationId = sealedJob.operationId ?? newOperationId(sealedJob.requestedAt, 'unnamed');
  const job = await withCredentials(sealedJob, operationId);
  const { spaceId } = job;
  const url = job.url ? redactUrl(job.url) : '';
  // Both reads at once: neither depends on the other (one round trip off every job).
  const [existing, space] = await Promise.all([getOperation(spaceId, operationId), spaceEntity.get({ spaceId }, { consistent: true })]);
  if (existing && (existing.status === 'succeeded' || existing.status === 'skipped')) return;
  // This delivery's attempt (the operation counts them below): retries are the same sync.
  const attempt = (existing?.attempts ?? 0) + 1;
  if (!space || space.deletedAt) throw new Error(`No space ${spaceId}: the git-sync job cannot run`);
  const stages = new StageWriter((name) => updateOperation(spaceId, operationId, { stage: name }));
  // Progress starts again from zero on every attempt (a retry redoes the whole job).
  const progress = new ProgressTracker((snapshot) => updateOperation(spaceId, operationId, { progress: snapshot }));
  const writes: JobWrites = {
    stages,
    progress,
    async settle() {
      await Promise.all([stages.settle(), progress.settle()]);
    },
  };
  await updateOperation(spaceId, operationId, {
    id: operationId, spaceId, operation: job.operation, status: 'running', stage: 'starting', url, ref: job.ref ?? '',
    requestedAt: job.requestedAt, startedAt: nowIso(), ...(job.timestamp ? { timestamp: job.timestamp } : {}), progress: progress.snapshot(),
  }, { incrementAttempts: true });
  // One started event per sync, not per attempt.
  if (attempt === 1) await emitOrganizationEvent(space.orgId, gitSyncStarted(spaceId, space.revision));
  try {
    if (!job.url || !job.ref) throw new Error('The job has no repository URL or ref');
    const info = await getGitInfo(spaceId);
    if (job.timestamp && info?.lastTimestamp && job.timestamp < info.lastTimestamp) {
      throw new Skip(`Skipped: an operation with a later timestamp (${info.lastTimestamp}) was already applied`);
    }
    if (job.operation === 'import') await runImport(job, space, operationId, writes);
    else await runExport(job, space, operationId, writes);
    await emitOrganizationEvent(space.orgId, gitSyncCompleted(spaceId, 'success', await getOperation(spaceId, operationId)));
  } catch (error) {
    await writes.settle();
    if (error instanceof Skip) {
      await updateOperation(spaceId, operationId, { status: 'skipped', message: error.message, finishedAt: nowIso(), progress: progress.snapshot() });
      // The public states have no "skipped": the sync ends without changing the content, which
      // stays at the later operation's revision (no integration is left waiting after `started`).
      const current = await spaceEntity.get({ spaceId }, { consistent: true });
      await emitOrganizationEvent(space.orgId, gitSyncCompleted(spaceId, 'success', { revision: current?.revision ?? space.revision }));
      return;
    }
    const message = redactText(describe(error, job), job.url ?? '');
    await updateOperation(spaceId, operationId, { status: 'failed', message, finishedAt: nowIso(), progress: progress.snapshot() });
    // Completed with a failure once the sync fails for good: a refusal (not retried) or the last attempt (then the DLQ).
    const refused = finalRefusal(error);
    if (refused || attempt >= MAX_SYNC_ATTEMPTS) await emitOrganizationEvent(space.orgId, gitSyncCompleted(spaceId, 'failure', undefined));
    if (refused) return;
    throw new Error(message);
  }
}

/** The job with its URL's credentials opened again (they travel sealed: functions/git/app.ts). */
async function withCredentials(job: GitSyncJob, operationId: string): Promise<GitSyncJob> {
  if (!job.sealedCredentials || !job.url) return job;
  const credentials = await openCredentials(job.sealedCredentials, operationId);
  return { ...job, url: putCredentials(job.url, credentials) };
}

/** The egress guard's refusal behind an error, where isomorphic-git wrapped it. */
function egressCause(error: unknown): EgressError | undefined {
  let e = error as { cause?: unknown; data?: { error?: unknown } } | undefined;
  for (let depth = 0; e && depth < 5; depth++) {
    if (isEgressError(e)) return e;
    e = (e.cause ?? e.data?.error) as typeof e;
  }
  return undefined;
}

/**
 * The server's answers retrying cannot change: the repository is not there, or not to these
 * credentials (401, 403; GitHub answers 404 to a private repository asked without them).
 */
const FINAL_HTTP_STATUSES = new Set([401, 403, 404]);

/** Retrying cannot change these: the same URL would be refused again, the repository or branch is not there, the files conflict. */
function finalRefusal(error: unknown): boolean {
  if (error instanceof FinalError) return true;
  const e = error as { code?: string; data?: { statusCode?: number } };
  if (e.code === 'HttpError' && FINAL_HTTP_STATUSES.has(e.data?.statusCode ?? 0)) return true;
  const failure = egressCause(error)?.failure;
  return failure === 'forbidden' || failure === 'too-large' || failure === 'redirects';
}

function describe(error: unknown, job: GitSyncJob): string {
  const e = error as { message?: string; code?: string; data?: { statusCode?: number } };
  const where = `${job.operation} ${job.ref ?? ''} from ${redactUrl(job.url ?? '')}`;
  const refused = egressCause(error);
  if (refused) return `Git ${where} failed: ${refused.reason}`;
  if (e.code === 'HttpError' && e.data?.statusCode) return `Git ${where} failed: the server answered HTTP ${e.data.statusCode}`;
  if (e.code === 'SmartHttpError' || e.code === 'HttpError') return `Git ${where} failed: the repository could not be reached (${e.message})`;
  if (/ECONNREFUSED|ENOTFOUND|EAI_AGAIN|ETIMEDOUT/.test(String(e.message))) return `Git ${where} failed: the repository could not be reached (${e.message})`;
  return `Git ${where} failed: ${e.message ?? String(error)}`;
}

/**
 * Upserts the git info; with a job timestamp, only if no later operation was applied.
 * `synced`: the commit whose files are now the space's content (not for a standalone import,
 * nor an export that merged the branch's changes without bringing them into the space).
 */
function infoUpdate(job: GitSyncJob, now: string, commit: string, synced: string | undefined): Write<unknown> {
  const timestamp = job.timestamp;
  return gitInfoEntity.update({ spaceId: job.spaceId }, {
    upsert: true,
    set: {
      spaceId: job.spaceId, url: redactUrl(job.gitInfo?.url ?? job.url!), remote: redactUrl(job.url!), ref: job.ref, updatedAt: now,
      commit, repoName: repoNameOf(job.url!), installationProvider: job.gitInfo?.provider ?? gitProviderOf(job.url!), integration: 'git-sync',
      ...(timestamp ? { lastTimestamp: timestamp } : {}), ...(synced ? { syncedCommit: synced } : {}),
    },
    ...(timestamp ? { if: (w) => w.or(w.lacks('lastTimestamp'), w.le('lastTimestamp', timestamp)) } : {}),
  });
}

/**
 * The revision's `git.url` (spec: URL of the commit in the provider): `repoCommitURL` + the
 * commit when the caller gave that prefix, else the repository URL. Never with credentials.
 */
export function commitUrl(job: Pick<GitSyncJob, 'url' | 'repoCommitURL'>, oid: string): string {
  const prefix = job.repoCommitURL && /^https?:\/\//.test(job.repoCommitURL) ? redactUrl(job.repoCommitURL) : undefined;
  if (!prefix) return redactUrl(job.url!);
  return `${prefix}${prefix.endsWith('/') ? '' : '/'}${oid}`;
}


const MESSAGE_MAX = 2000;

/** A succeeded import's message when it read files differently from what they say: how many, then the first ones. */
function warningsMessage(warnings: string[]): string | undefined {
  if (warnings.length === 0) return undefined;
  let message = `Imported with ${warnings.length} warning${warnings.length === 1 ? '' : 's'}: ${warnings.join('; ')}`;
  if (message.length > MESSAGE_MAX) message = `${message.slice(0, MESSAGE_MAX - 1)}…`;
  return message;
}

/** Marks the operation succeeded, unless it already was (a redelivered job). */
function operationDone(job: GitSyncJob, operationId: string, fields: Partial<GitOperationItem>): Write<unknown> {
  return gitOperationEntity.update({ spaceId: job.spaceId, operationId }, {
    upsert: true, set: { status: 'succeeded', finishedAt: nowIso(), ...fields }, remove: ['stage'], if: (w) => w.ne('status', 'succeeded'),
  });
}

/** Runs the final transaction; a failed condition on the operation means it already completed. */
async function commitOutcome(items: Write<unknown>[], operationIndex: number, infoIndex: number): Promise<'done' | 'already' | 'stale'> {
  let failed = -1;
  try {
    await transact(items, (index) => {
      failed = index;
      return new ApiError(409, 'condition failed');
    });
    return 'done';
  } catch (error) {
    if (failed === operationIndex) return 'already';
    if (failed === infoIndex) return 'stale';
    if (failed >= 0) throw new Error('The space changed while the import ran (its content moved, it was locked or deleted); the job will retry');
    throw error;
  }
}

/** What a job writes on its operation record as it goes; `settle` waits for both, before the outcome. */
interface JobWrites {
  stages: StageWriter;
  progress: ProgressTracker;
  settle(): Promise<void>;
}

async function runImport(job: GitSyncJob, space: SpaceItem, operationId: string, { stages, progress, settle }: JobWrites): Promise<void> {
  stages.enter('cloning');
  // The space's content (the previous import, whose ids and blobs this one keeps) loads while git clones.
  const loadingPrimary = space.revision ? loadRevision(space.id, space.revision) : Promise.resolve(undefined);
  // Awaited below; a clone that fails first leaves it unawaited.
  loadingPrimary.catch(() => {});
  const checkout = await Checkout.open(job.url!, job.ref!, { requireRef: true });
  try {
    const head = checkout.head!;
    stages.enter('reading');
    const primary = await loadingPrimary;
    if (!job.force && !job.standalone && primary?.revision.git?.oid === head && primary.revision.git.ref === job.ref) {
      stages.enter('saving');
      await settle();
      const outcome = await commitOutcome([operationDone(job, operationId, { commit: head, message: 'Already up to date', revision: primary.revision.id, progress: progress.snapshot() }), infoUpdate(job, nowIso(), head, job.standalone ? undefined : head)], 0, 1);
      if (outcome === 'stale') throw new Skip('Skipped: an operation with a later timestamp was applied meanwhile');
      return;
    }
    const files = await checkout.files(head);
    stages.enter('writing');
    const now = nowIso();
    const { manifest, redirects, warnings, stats } = await importRepository(
      { files, read: (oid) => checkout.readBlob(oid) },
      { projectDirectory: job.repoProjectDirectory, previous: primary?.manifest, now, progress },
    );
    // What was read, and how much of it the markdown fast path took (the rest went to micromark).
    logger.info('git import', { ...stats, warnings: warnings.length });
    stages.enter('saving');
    const next = await prepareRevision({
      spaceId: space.id, manifest, parents: primary ? [primary.revision.id] : [], type: 'edits', createdBy: job.requestedBy ?? 'git-sync',
    });
    const git = { oid: head, message: await checkout.commitMessage(head), createdByGitBook: false, url: commitUrl(job, head), ref: job.ref! };
    next.revision.git = git;
    // `.gitbook.yaml` redirects, resolved to page ids, kept on the revision record for readers.
    const revisionWrite = revisionEntity.create({ spaceId: space.id, revisionId: next.revision.id }, {
      ...next.revision, ...(redirects.length ? { gitRedirects: redirects } : {}),
    });
    const message = warningsMessage(warnings);
    const items: Write<unknown>[] = [revisionWrite, operationDone(job, operationId, { commit: head, revision: next.revision.id, progress: progress.snapshot(), ...(message ? { message } : {}) }), infoUpdate(job, now, head, job.standalone ? undefined : head)];
    if (!job.standalone) {
      items.push(movePrimaryRevision({ spaceId: space.id, from: space.revision, to: next.revision.id, now, unlockedOnly: true, set: { gitSync: gitSyncOf(job, now) } }));
    }
    // No stage or progress write may land after the outcome's (it removes the stage).
    await settle();
    const outcome = await commitOutcome(items, 1, 2);
    if (outcome === 'stale') throw new Skip('Skipped: an operation with a later timestamp was applied meanwhile');
    // The primary content moved (before space_gitsync_completed, which follows the import).
    if (outcome === 'done' && !job.standalone) await emitOrganizationEvent(space.orgId, contentUpdated(space.id, next.revision.id));
  } finally {
    await checkout.close();
  }
}

async function runExport(job: GitSyncJob, space: SpaceItem, operationId: string, { stages, progress, settle }: JobWrites): Promise<void> {
  if (!job.commitMessage) throw new Error('An export needs a commit message');
  const primary = space.revision ? await loadRevision(space.id, space.revision) : undefined;
  if (!primary) throw new Error(`The space ${space.id} has no content to export`);
  stages.enter('cloning');
  const info = await getGitInfo(space.id);
  const synced = (info?.remote ?? info?.url) === redactUrl(job.url!) && info?.ref === job.ref ? info?.syncedCommit ?? info?.commit : undefined;
  const checkout = await Checkout.open(job.url!, job.ref!, { fallbackRef: info?.ref ?? primary.revision.git?.ref, since: synced });
  try {
    stages.enter('writing');
    const { tree, ours } = await treeToExport(job, primary.manifest, checkout, synced, progress);
    const treeOid = await checkout.writeTrees(tree);
    let commit = checkout.head!;
    // The commit whose files are the space's content, when there is one.
    let syncedCommit = ours ? undefined : commit;
    if (!checkout.branchExists || !checkout.head || treeOid !== await checkout.treeOf(checkout.head)) {
      stages.enter('pushing');
      if (ours) {
        // The space's changes as a commit on the last sync, merged into the branch.
        syncedCommit = await checkout.writeCommit({ tree: await checkout.writeTrees(ours), message: job.commitMessage, parents: [checkout.since!] });
        commit = await checkout.commitAndPush({ tree: treeOid, message: `Merge the space's changes into ${checkout.branch}`, parents: [checkout.head!, syncedCommit] });
      } else {
        commit = syncedCommit = await checkout.commitAndPush({ tree: treeOid, message: job.commitMessage, force: job.force });
      }
    }
    stages.enter('saving');
    await settle();
    const now = nowIso();
    const outcome = await commitOutcome([
      operationDone(job, operationId, { commit, revision: primary.revision.id, progress: progress.snapshot() }),
      infoUpdate(job, now, commit, syncedCommit),
      spaceEntity.update({ spaceId: space.id }, { set: { gitSync: gitSyncOf(job, now) } }),
    ], 0, 1);
    if (outcome === 'stale') throw new Skip('Skipped: an operation with a later timestamp was applied meanwhile');
  } finally {
    await checkout.close();
  }
}

/**
 * The tree an export commits: the space's content written on the branch's head, or, when the
 * branch moved on since the space last synced with it (`synced`), merged with what changed
 * there (merge-trees.ts; `ours` is then the space's content written on that commit). A file
 * changed on both sides fails the export, nothing pushed; `force` replaces the branch's files.
 */
async function treeToExport(job: GitSyncJob, manifest: Manifest, checkout: Checkout, synced: string | undefined, progress: ProgressTracker): Promise<{ tree: Map<string, FlatEntry>; ours?: Map<string, FlatEntry> }> {
  const target = (files: Map<string, FlatEntry>) => ({ files, read: (oid: string) => checkout.readBlob(oid), write: (bytes: Uint8Array) => checkout.writeBlob(bytes) });
  const options = { projectDirectory: job.repoProjectDirectory, progress };
  const files = await checkout.files(checkout.head);
  if (job.force || !synced || !checkout.branchExists || checkout.head === synced) return { tree: await exportManifest(manifest, target(files), options) };
  const resolve = 'import the branch first to bring its changes into the space, or export with force to replace them';
  if (!checkout.since) {
    throw new FinalError(`the branch ${checkout.branch} no longer holds the commit this space last synced with (${synced.slice(0, 7)}: its history was rewritten); nothing was pushed: ${resolve}`);
  }
  const base = await checkout.files(checkout.since);
  const ours = await exportManifest(manifest, target(base), options);
  const { tree, conflicts } = mergeTrees(base, ours, files);
  if (conflicts.length > 0) {
    const listed = conflicts.slice(0, 10).join(', ') + (conflicts.length > 10 ? ` and ${conflicts.length - 10} more` : '');
    throw new FinalError(`the branch ${checkout.branch} moved on since this space last synced with it (${synced.slice(0, 7)}, now ${checkout.head!.slice(0, 7)}) and these files changed on both sides: ${listed}; nothing was pushed: ${resolve}`);
  }
  return { tree, ours };
}

/** The space's `gitSync` (spec 2.7) after an operation: where it syncs, never with credentials. */
function gitSyncOf(job: GitSyncJob, now: string) {
  return {
    repoName: repoNameOf(job.url!),
    installationProvider: job.gitInfo?.provider ?? gitProviderOf(job.url!),
    integration: 'git-sync',
    url: redactUrl(job.gitInfo?.url ?? job.url!),
    updatedAt: now,
  };
}
