import { defineEntity } from '../entity.ts';

/**
 * The blob sweep's continuation (shared/content/blob-sweep.ts): a run spans as many jobs-worker
 * invocations as it needs, each taking it from where the previous one stopped.
 */
export interface BlobSweepRunItem {
  runId: string;
  /** Blobs written at or after this (service clock, ms) are never deleted by this run. */
  cutoffMs: number;
  graceHours: number;
  startedAt: string;
  /** 'mark' until the Scan has read the whole table, then 'sweep' (listing blobs/). */
  phase: 'mark' | 'sweep';
  /** Pages done; each write of the run is conditional on it, so two invocations never both advance it. */
  step: number;
  /** The Scan's LastEvaluatedKey: where the mark continues. */
  scanAfter?: Record<string, unknown>;
  /** The last key listed under blobs/: where the sweep continues (ListObjectsV2 StartAfter). */
  listAfter?: string;
  /** Items of marks written (blobSweepMarksEntity). */
  markParts: number;
  /** Hashes written to those items, page by page (a hash named on several pages counts each time). */
  marksWritten: number;
  /** Distinct marked blobs, known once the sweep phase has read the marks. */
  marked?: number;
  missingManifests: number;
  listed: number;
  deleted: number;
  keptByGrace: number;
}

/** Marked blob hashes of one page of a run's mark: 32-byte SHA-256 digests, concatenated (≤ 12,000 per item, under DynamoDB's 400 KB). */
export interface BlobSweepMarksItem {
  runId: string;
  step: number;
  part: number;
  hashes: Uint8Array;
}

/** The partition of a bucket's sweep: the run's state and its marks, nothing else. */
const partition = (bucket: string) => `BLOB_SWEEP#${bucket}`;

/** BLOB_SWEEP#<bucket> / RUN: the run in progress over that bucket (none between runs). */
export const blobSweepRunEntity = defineEntity<BlobSweepRunItem>()({
  type: 'blob-sweep-run',
  key: ({ bucket }: { bucket: string }) => ({ pk: partition(bucket), sk: 'RUN' }),
});

/** BLOB_SWEEP#<bucket> / MARKS#<run>#<step>#<part>: what the mark found, kept until the run ends. */
export const blobSweepMarksEntity = defineEntity<BlobSweepMarksItem>()({
  type: 'blob-sweep-marks',
  key: ({ bucket, runId, step, part }: { bucket: string; runId: string; step: number; part: number }) => ({
    pk: partition(bucket), sk: `MARKS#${runId}#${String(step).padStart(10, '0')}#${String(part).padStart(4, '0')}`,
  }),
  partitions: {
    /** Every run's marks (a new run removes those an interrupted finish left). */
    inBucket: ({ bucket }: { bucket: string }) => ({ pk: partition(bucket), prefix: 'MARKS#' }),
    ofRun: ({ bucket, runId }: { bucket: string; runId: string }) => ({ pk: partition(bucket), prefix: `MARKS#${runId}#` }),
  },
});
