/**
 * Translations (spec 4.16), in the organization's partition: ORG#<org> / TRANSLATION#<id>.
 * The org's translations are one Query (sk begins_with TRANSLATION#), in id order.
 */
import { defineEntity } from '../entity.ts';
import type { StoredDocument } from '../../content/types.ts';

const TRANSLATION_PREFIX = 'TRANSLATION#';

/** The public interface's statuses (TranslationStatus): pending → running → completed. */
export type TranslationStatus = 'pending' | 'running' | 'completed';

export interface TranslationStats {
  runs: number;
  totalWords: number;
  totalPages: number;
  totalDuration: number;
  latestRunDuration: number;
  latestPages: number;
  latestWords: number;
}

export interface TranslationItem {
  id: string;
  orgId: string;
  status: TranslationStatus;
  source: { space: string; language: string };
  language: string;
  instructions: StoredDocument;
  /** Set by the first completed run: the result space and its latest translated revision. */
  result?: { space: string; revision: string; language: string };
  stats: TranslationStats;
  /** Ids of every source page translated so far (stats.totalPages counts them). */
  translatedPages?: string[];
  /** Blob (JSON) of the source content hashes of the last completed run: unchanged parts are not sent again. */
  sourceHashes?: string;
  /**
   * Token of the run requested last and not completed yet. A run job acts only while this is
   * set, and completes only if it is still the same token: redelivered or superseded jobs are no-ops.
   */
  pendingRun?: string;
  /** Why the latest run could not complete (not presented), e.g. the source space is gone or the provider kept failing. */
  lastError?: string;
  /** Attempts made at the pending run (queue receives that reached the worker); reset by each new run request. */
  runAttempts?: number;
  createdBy: string;
  createdAt: string;
  updatedAt: string;
}

export const translationEntity = defineEntity<TranslationItem>()({
  type: 'translation',
  key: ({ orgId, translationId }: { orgId: string; translationId: string }) => ({ pk: `ORG#${orgId}`, sk: `${TRANSLATION_PREFIX}${translationId}` }),
  partitions: {
    inOrg: (a: { orgId: string }) => ({ pk: `ORG#${a.orgId}`, prefix: TRANSLATION_PREFIX }),
  },
});

export const emptyTranslationStats = (): TranslationStats => ({
  runs: 0, totalWords: 0, totalPages: 0, totalDuration: 0, latestRunDuration: 0, latestPages: 0, latestWords: 0,
});
