/** Git info and operation records: written by the API (queued) and the worker (the rest). */
import { nowIso } from '../clock.ts';
import { NotFound } from '../db/errors.ts';
import { gitInfoEntity, gitOperationEntity, type GitInfoItem, type GitOperationItem } from '../db/entities/git-info.ts';
import type { GitInfoOutput } from '../presenters/schemas/git-info.ts';
import { documentedProvider } from '../presenters/git-sync.ts';

export { gitProviderOf } from '../presenters/git-sync.ts';
import { run } from '../db/writes.ts';

export async function getGitInfo(spaceId: string): Promise<GitInfoItem | undefined> {
  return gitInfoEntity.get({ spaceId }, { consistent: true });
}

export async function getOperation(spaceId: string, operationId: string): Promise<GitOperationItem | undefined> {
  return gitOperationEntity.get({ spaceId, operationId }, { consistent: true });
}

export async function putQueuedOperation(op: GitOperationItem): Promise<void> {
  await run(gitOperationEntity.put({ spaceId: op.spaceId, operationId: op.id }, op));
}

/** SET the given fields of an operation (creating it when a job arrives without its queued record). */
export async function updateOperation(spaceId: string, operationId: string, fields: Partial<GitOperationItem>, options: { incrementAttempts?: boolean } = {}): Promise<void> {
  await run(gitOperationEntity.update({ spaceId, operationId }, {
    set: fields, upsert: true, ...(options.incrementAttempts ? { add: { attempts: 1 } } : {}),
  }));
}

/** The most recent operations, newest first. */
export async function recentOperations(spaceId: string, limit = 20): Promise<GitOperationItem[]> {
  return (await gitOperationEntity.query.inSpace({ spaceId }, { forward: false }).page({ limit })).items;
}

/** Operation ids sort by request time. */
export function newOperationId(requestedAt: string, random: string): string {
  return `${requestedAt.replace(/[^0-9]/g, '')}-${random}`;
}

export function presentOperation(op: GitOperationItem | undefined) {
  if (!op) return null;
  return {
    id: op.id,
    operation: op.operation,
    status: op.status,
    ...(op.stage ? { stage: op.stage } : {}),
    ...(op.message ? { message: op.message } : {}),
    url: op.url,
    ref: op.ref,
    requestedAt: op.requestedAt,
    ...(op.timestamp ? { timestamp: op.timestamp } : {}),
    ...(op.startedAt ? { startedAt: op.startedAt } : {}),
    ...(op.finishedAt ? { finishedAt: op.finishedAt } : {}),
    attempts: op.attempts ?? 0,
    ...(op.commit ? { commit: op.commit } : {}),
    ...(op.revision ? { revision: op.revision } : {}),
    ...(op.progress ? { progress: op.progress } : {}),
  };
}

/**
 * The public `GitSyncState.operation` of an operation: queued or running is `running`, a
 * skipped one (an older `timestamp`) a `success` that changed nothing, as its
 * space_gitsync_completed event says; a failure carries its message as `error`.
 */
function publicOperation(op: GitOperationItem) {
  const state = op.status === 'failed' ? 'failure' as const : op.status === 'succeeded' || op.status === 'skipped' ? 'success' as const : 'running' as const;
  return {
    state, direction: op.operation, startedAt: op.startedAt ?? op.requestedAt,
    ...(state !== 'running' && op.finishedAt ? { endedAt: op.finishedAt } : {}),
    ...(state === 'failure' && op.message ? { error: op.message } : {}),
  };
}

/**
 * Git info (spec 2.14) plus the last finished and the running (or queued) operation; the
 * public `operation` is the running one, else the last. Before
 * any import or export the installation is `pending`, its provider GitHub (the interface's
 * default) and it has no `updatedAt`.
 */
export async function presentGitInfo(spaceId: string): Promise<GitInfoOutput> {
  const [info, ops] = await Promise.all([getGitInfo(spaceId), recentOperations(spaceId)]);
  const running = ops.find((op) => op.status === 'running') ?? ops.filter((op) => op.status === 'queued').at(-1);
  const last = ops.find((op) => op.status === 'succeeded' || op.status === 'failed' || op.status === 'skipped');
  return {
    repoName: info?.repoName ?? '',
    installationId: spaceId,
    installationStatus: info || ops.length ? 'active' : 'pending',
    installationProvider: documentedProvider(info),
    integration: info?.integration ?? '',
    url: info?.url ?? '',
    ...(info?.updatedAt ? { updatedAt: info.updatedAt } : {}),
    ...(info?.ref ? { ref: info.ref } : {}),
    ...(info?.commit ? { commit: info.commit } : {}),
    ...(running ?? last ? { operation: publicOperation((running ?? last)!) } : {}),
    operations: { last: presentOperation(last), running: presentOperation(running) },
  };
}

export async function clearLegacyInstallation(spaceId: string): Promise<void> {
  await run(gitInfoEntity.update({ spaceId }, { remove: ['legacyInstallation'] })).catch((error: unknown) => {
    if (!(error instanceof NotFound)) throw error;
  });
}

export { nowIso };
