import { defineEntity } from '../entity.ts';
import type { GitProgress } from '../../git/progress.ts';

/**
 * The Git sync state of a space (spec 2.14 Git info), kept by the API (queued operations)
 * and the git worker. URLs are stored without credentials, always.
 */
export interface GitInfoItem {
  spaceId: string;
  repoName?: string;
  installationProvider?: string;
  integration?: string;
  /** Repository URL without credentials. */
  url?: string;
  /** The URL the last operation used (without credentials). */
  remote?: string;
  ref?: string;
  updatedAt?: string;
  /** `timestamp` of the last applied operation: older ones are skipped. */
  lastTimestamp?: string;
  /** Commit of the last successful import or export. */
  commit?: string;
  /**
   * The branch's commit whose files are the space's content (the last import, or the last
   * export's own commit): the base of an export onto a branch that moved on since.
   */
  syncedCommit?: string;
  /** A legacy installation marker; DELETE .../legacy-installation removes it. */
  legacyInstallation?: string;
}

export type GitOperationStatus = 'queued' | 'running' | 'succeeded' | 'failed' | 'skipped';

/** One import or export, from the request to its outcome. */
export interface GitOperationItem {
  id: string;
  spaceId: string;
  operation: 'import' | 'export';
  status: GitOperationStatus;
  /** While running: cloning, reading, writing, saving, pushing. */
  stage?: string;
  /** Why it failed or was skipped. */
  message?: string;
  url: string;
  ref: string;
  requestedAt: string;
  requestedBy?: string;
  timestamp?: string;
  startedAt?: string;
  finishedAt?: string;
  attempts: number;
  /** Commit imported or pushed. */
  commit?: string;
  /** Revision the import produced. */
  revision?: string;
  /** Pages and files done of their totals and bytes moved; saved while running and with the outcome. */
  progress?: GitProgress;
}

const GIT_OPERATION_PREFIX = 'GIT_OP#';

/** SPACE#<id> / GIT_INFO. */
export const gitInfoEntity = defineEntity<GitInfoItem>()({
  type: 'git-info',
  key: ({ spaceId }: { spaceId: string }) => ({ pk: `SPACE#${spaceId}`, sk: 'GIT_INFO' }),
});

/** SPACE#<id> / GIT_OP#<operationId>; operation ids start with the request time, so they sort by it. */
export const gitOperationEntity = defineEntity<GitOperationItem>()({
  type: 'git-operation',
  key: ({ spaceId, operationId }: { spaceId: string; operationId: string }) => ({ pk: `SPACE#${spaceId}`, sk: `${GIT_OPERATION_PREFIX}${operationId}` }),
  partitions: {
    /** A space's operations in request order. */
    inSpace: (a: { spaceId: string }) => ({ pk: `SPACE#${a.spaceId}`, prefix: GIT_OPERATION_PREFIX }),
  },
});
