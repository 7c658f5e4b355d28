import { scanTypes } from '../db/scan.ts';
import { DeleteObjectsCommand, ListObjectsV2Command } from '@aws-sdk/client-s3';
import { s3 } from '../aws/clients.ts';
import { config } from '../config.ts';
import { nowMs } from '../clock.ts';
import { mapLimit } from '../map-limit.ts';
import { ENTITY_TYPE } from '../db/table.ts';
import { revisionEntity } from '../db/entities/revision.ts';
import { pdfExportEntity } from '../db/entities/pdf-export.ts';
import { openAPISpecEntity } from '../db/entities/openapi-spec.ts';
import { integrationEntity } from '../db/entities/integration.ts';
import { translationEntity } from '../db/entities/translation.ts';
import { blobKey, getJsonBlob, storedBlobOf } from './blobs.ts';
import type { Manifest, ManifestPage } from './types.ts';

/**
 * Mark-and-sweep of content-addressed blobs (`blobs/<sha256>`, shared/content/blobs.ts).
 * A blob is shared by every revision and space that names it, so nothing deletes one when
 * a record goes away (a purged space, a replaced OpenAPI source, a superseded PDF); this
 * background job (`blob-sweep` on the jobs queue, daily in AWS) does.
 *
 * Mark: every blob named by a record that exists now — each record kind below, and for
 * revisions what their manifest names (page documents, file bytes, reusable contents).
 * Sweep: list `blobs/` and delete what no record names AND was last written before the grace
 * cut-off. Writers PUT a blob before the record that names it, and a PUT refreshes the
 * object's LastModified, so a blob of an edit in flight is younger than the cut-off.
 * The cut-off is taken before the mark starts: a record written after the scan passed its
 * partition names a blob PUT at most (grace) before it, hence after the cut-off.
 * Deleting is idempotent and the mark is complete before the first delete, so a redelivered
 * or concurrent run is safe; any read error other than a missing manifest fails the run
 * before anything is deleted.
 */

/** Fields that hold a blob hash (or a list of them), per entity type. A new blob-naming field must be added here. */
const BLOB_FIELDS: Record<string, readonly string[]> = {
  [revisionEntity.type]: ['manifest'],
  [pdfExportEntity.type]: ['blob'],
  [openAPISpecEntity.type]: ['sourceTextBlob', 'lastVersionBlob'],
  [integrationEntity.type]: ['iconBlob', 'previewImageBlobs', 'scriptBlob'],
  [translationEntity.type]: ['sourceHashes'],
};

export const DEFAULT_BLOB_SWEEP_GRACE_HOURS = 24;
/** Manifests read at once during the mark. */
const MANIFEST_READS_IN_FLIGHT = 16;
const SHA256 = /^[0-9a-f]{64}$/;

export interface BlobSweepReport {
  /** Distinct blobs named by a record or a manifest. */
  marked: number;
  /** Revision manifests that were not in the bucket (a broken revision: reported, not fatal). */
  missingManifests: number;
  /** Objects under `blobs/`. */
  listed: number;
  deleted: number;
  /** Unreferenced, but written after the cut-off: an edit in flight may still name them. */
  keptByGrace: number;
  graceHours: number;
}

/** BLOB_SWEEP_GRACE_HOURS: hours ≥ 0 (fractions allowed); anything else stops the sweep rather than guess. */
export function blobSweepGraceHours(): number {
  const raw = process.env.BLOB_SWEEP_GRACE_HOURS;
  if (raw === undefined || raw.trim() === '') return DEFAULT_BLOB_SWEEP_GRACE_HOURS;
  const hours = Number(raw);
  if (!Number.isFinite(hours) || hours < 0) throw new Error(`BLOB_SWEEP_GRACE_HOURS must be a number of hours ≥ 0, not "${raw}"`);
  return hours;
}

export async function sweepBlobs(): Promise<BlobSweepReport> {
  const graceHours = blobSweepGraceHours();
  const cutoffMs = nowMs() - graceHours * 3_600_000;
  const { marked, missingManifests } = await markReferencedBlobs();
  const { listed, deleted, keptByGrace } = await sweepUnmarked(marked, cutoffMs);
  return { marked: marked.size, missingManifests, listed, deleted, keptByGrace, graceHours };
}

async function markReferencedBlobs(): Promise<{ marked: Set<string>; missingManifests: number }> {
  const marked = new Set<string>();
  const manifests = new Set<string>();
  for await (const record of recordsNamingBlobs()) {
    for (const field of BLOB_FIELDS[record[ENTITY_TYPE] as string] ?? []) {
      for (const hash of [record[field]].flat()) if (typeof hash === 'string') marked.add(hash);
    }
    if (record[ENTITY_TYPE] === revisionEntity.type && typeof record.manifest === 'string') manifests.add(record.manifest);
  }
  let missingManifests = 0;
  await mapLimit([...manifests], MANIFEST_READS_IN_FLIGHT, async (hash) => {
    const manifest = await readManifest(hash);
    if (manifest) markManifest(manifest, marked);
    else missingManifests++;
  });
  return { marked, missingManifests };
}

/**
 * The one Scan of the service: a background job that must see every record. Paginated,
 * strongly consistent (a record written just before is seen), only the records that can
 * name blobs and only their type and blob fields.
 */
async function* recordsNamingBlobs(): AsyncGenerator<Record<string, unknown>> {
  yield* scanTypes(Object.keys(BLOB_FIELDS), Object.values(BLOB_FIELDS).flat());
}

async function readManifest(hash: string): Promise<Manifest | undefined> {
  try {
    return await getJsonBlob<Manifest>(hash);
  } catch (error) {
    // Only a missing object is tolerated: any other failure must stop the run before it deletes.
    const e = error as { name?: string; $metadata?: { httpStatusCode?: number } };
    if (e.name === 'NoSuchKey' || e.$metadata?.httpStatusCode === 404) return undefined;
    throw error;
  }
}

function markManifest(manifest: Manifest, marked: Set<string>): void {
  const pages: ManifestPage[] = [...manifest.pages];
  for (let page = pages.pop(); page; page = pages.pop()) {
    if (page.document) marked.add(storedBlobOf(page.document));
    pages.push(...page.pages);
  }
  for (const file of manifest.files) marked.add(file.blob);
  for (const reusable of manifest.reusableContents) marked.add(storedBlobOf(reusable.document));
}

/** Lists `blobs/` a page (≤ 1000 keys) at a time and deletes that page's unmarked, old blobs in one DeleteObjects. */
async function sweepUnmarked(marked: Set<string>, cutoffMs: number): Promise<{ listed: number; deleted: number; keptByGrace: number }> {
  const prefix = blobKey('');
  let listed = 0;
  let deleted = 0;
  let keptByGrace = 0;
  let token: string | undefined;
  do {
    const page = await s3().send(new ListObjectsV2Command({ Bucket: config.bucketName, Prefix: prefix, ContinuationToken: token }));
    const doomed: { Key: string }[] = [];
    for (const object of page.Contents ?? []) {
      listed++;
      const hash = object.Key!.slice(prefix.length);
      // Keys that are not a sha256 were not written by blobs.ts: not this job's to judge.
      if (!SHA256.test(hash) || marked.has(hash)) continue;
      if ((object.LastModified?.getTime() ?? Infinity) < cutoffMs) doomed.push({ Key: object.Key! });
      else keptByGrace++;
    }
    if (doomed.length > 0) {
      const out = await s3().send(new DeleteObjectsCommand({ Bucket: config.bucketName, Delete: { Objects: doomed, Quiet: true } }));
      if (out.Errors?.length) {
        throw new Error(`DeleteObjects failed for ${out.Errors.length} of ${doomed.length} blobs: ${out.Errors[0]!.Key} ${out.Errors[0]!.Code}`);
      }
      deleted += doomed.length;
    }
    token = page.IsTruncated ? page.NextContinuationToken : undefined;
  } while (token);
  return { listed, deleted, keptByGrace };
}
