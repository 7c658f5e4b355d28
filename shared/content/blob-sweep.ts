import { scanTypesPage } from '../db/scan.ts';
import { DeleteObjectsCommand, ListObjectsV2Command } from '@aws-sdk/client-s3';
import { s3 } from '../aws/clients.ts';
import { config } from '../config.ts';
import { nowMs } from '../clock.ts';
import { mapLimit } from '../map-limit.ts';
import { randomId } from '../ids.ts';
import { run } from '../db/writes.ts';
import { ConditionFailed } from '../db/errors.ts';
import { ENTITY_TYPE } from '../db/table.ts';
import { revisionEntity } from '../db/entities/revision.ts';
import { pdfExportEntity } from '../db/entities/pdf-export.ts';
import { openAPISpecEntity } from '../db/entities/openapi-spec.ts';
import { openAPISpecVersionEntity } from '../db/entities/openapi-spec-version.ts';
import { integrationEntity } from '../db/entities/integration.ts';
import { translationEntity } from '../db/entities/translation.ts';
import { blobSweepMarksEntity, blobSweepRunEntity, type BlobSweepRunItem } from '../db/entities/blob-sweep.ts';
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
 *
 * Resumable: a run is a sequence of pages (Scan pages, then listing pages), and its state —
 * cut-off, phase, Scan position or last key listed, counts — is one record
 * (blobSweepRunEntity), advanced after every page on the condition that no other invocation
 * advanced it first. Each mark page's hashes are kept in the table too (blobSweepMarksEntity),
 * so an invocation stopped by its budget or its timeout loses at most the page it was on, and
 * the next one (the job enqueues it) continues. The mark is complete before the first delete
 * (the sweep phase begins after the Scan's last page), and an invocation deletes nothing until
 * it has read every mark of the run and checked the run is still the one in progress (a finished
 * run's marks are removed only after its state). Deleting is idempotent, so a redelivered or
 * concurrent invocation is safe; any read error other than a missing manifest fails the
 * invocation before its page deletes anything, and the run continues from that page.
 */

/** Fields that hold a blob hash (or a list of them), per entity type. A new blob-naming field must be added here. */
const BLOB_FIELDS: Record<string, readonly string[]> = {
  [revisionEntity.type]: ['manifest'],
  [pdfExportEntity.type]: ['blob'],
  [openAPISpecEntity.type]: ['sourceTextBlob', 'lastVersionBlob'],
  [openAPISpecVersionEntity.type]: ['documentBlob', 'sourceBlob'],
  [integrationEntity.type]: ['iconBlob', 'previewImageBlobs', 'scriptBlob'],
  [translationEntity.type]: ['sourceHashes'],
};

export const DEFAULT_BLOB_SWEEP_GRACE_HOURS = 24;
/** Manifests read at once during the mark. */
const MANIFEST_READS_IN_FLIGHT = 16;
/** Records read per Scan page: bounds a page's manifest reads, so a page ends well within an invocation. */
const SCAN_PAGE_RECORDS = 500;
/** Keys per listing page (S3's maximum, and DeleteObjects' too). */
const LIST_PAGE_KEYS = 1000;
/** 32-byte hashes per marks item: 384 KB, under DynamoDB's 400 KB item limit. */
const HASHES_PER_MARKS_ITEM = 12_000;
const SHA256 = /^[0-9a-f]{64}$/;

export interface BlobSweepReport {
  runId: string;
  /** Distinct blobs named by a record or a manifest (once the sweep phase has read the marks; until then, hashes marked so far). */
  marked: number;
  /** Revision manifests that were not in the bucket (a broken revision: reported, not fatal). */
  missingManifests: number;
  /** Objects under `blobs/`. */
  listed: number;
  deleted: number;
  /** Unreferenced, but written after the cut-off: an edit in flight may still name them. */
  keptByGrace: number;
  graceHours: number;
  /** Where the run is: 'mark' (scanning the table) or 'sweep' (listing blobs/). */
  phase: BlobSweepRunItem['phase'];
  /** Pages this invocation did. */
  pages: number;
  /** The run is over (its state and marks removed); otherwise the next invocation continues it. */
  done: boolean;
  /** Another invocation advanced the run meanwhile: this one stopped, and that one continues it. */
  superseded?: boolean;
}

/** How much of a run one invocation may do: no new page starts once either is spent. Unlimited when absent. */
export interface BlobSweepBudget {
  pages?: number;
  /** Wall-clock time (Date.now()) after which no page starts. */
  untilMs?: number;
  /** Page sizes (tests lower them to make a small table or bucket span many pages). */
  scanPageRecords?: number;
  listPageKeys?: number;
}

/**
 * One `blob-sweep` job's share of a run (functions/workers/jobs/handler.ts): `ms` is half the
 * jobs worker's 2-minute timeout (other jobs may share its batch); the job then sends the job
 * that continues the run. An object so tests can lower it.
 */
export const blobSweepJobBudget: { ms: number } & Omit<BlobSweepBudget, 'untilMs'> = { ms: 60_000 };

/** BLOB_SWEEP_GRACE_HOURS: hours ≥ 0 (fractions allowed); anything else stops the sweep rather than guess. */
export function blobSweepGraceHours(): number {
  const raw = process.env.BLOB_SWEEP_GRACE_HOURS;
  if (raw === undefined || raw.trim() === '') return DEFAULT_BLOB_SWEEP_GRACE_HOURS;
  const hours = Number(raw);
  if (!Number.isFinite(hours) || hours < 0) throw new Error(`BLOB_SWEEP_GRACE_HOURS must be a number of hours ≥ 0, not "${raw}"`);
  return hours;
}

/**
 * Does the sweep's next pages within `budget`: continues the run in progress over this
 * bucket, or starts one. Without a budget, runs it to its end.
 */
export async function sweepBlobs(budget: BlobSweepBudget = {}): Promise<BlobSweepReport> {
  const bucket = config.bucketName;
  const graceHours = blobSweepGraceHours(); // checked on every invocation, even one that continues a run
  let state = await blobSweepRunEntity.get({ bucket }, { consistent: true }) ?? await startRun(bucket, graceHours);
  let pages = 0;
  let marks: Set<string> | undefined;
  const report = (done: boolean, superseded = false): BlobSweepReport => ({
    runId: state.runId, marked: state.marked ?? state.marksWritten, missingManifests: state.missingManifests, listed: state.listed,
    deleted: state.deleted, keptByGrace: state.keptByGrace, graceHours: state.graceHours, phase: state.phase, pages, done, ...(superseded ? { superseded } : {}),
  });
  try {
    while (pages < (budget.pages ?? Infinity) && (budget.untilMs === undefined || Date.now() < budget.untilMs)) {
      pages++;
      if (state.phase === 'mark') {
        state = await markPage(bucket, state, budget.scanPageRecords ?? SCAN_PAGE_RECORDS);
        continue;
      }
      marks ??= await readMarks(bucket, state);
      const previous = state;
      const swept = await sweepPage(bucket, state, marks, budget.listPageKeys ?? LIST_PAGE_KEYS);
      state = swept.state;
      if (swept.listed) {
        await finishRun(bucket, previous);
        return report(true);
      }
    }
  } catch (error) {
    if (error instanceof ConditionFailed) return report(false, true);
    throw error;
  }
  return report(false);
}

/** A new run: its cut-off taken now, before the mark. Marks left by an interrupted finish of an earlier run are removed. */
async function startRun(bucket: string, graceHours: number): Promise<BlobSweepRunItem> {
  const state: BlobSweepRunItem = {
    runId: randomId(12), cutoffMs: nowMs() - graceHours * 3_600_000, graceHours, startedAt: new Date(nowMs()).toISOString(), phase: 'mark', step: 0,
    markParts: 0, marksWritten: 0, missingManifests: 0, listed: 0, deleted: 0, keptByGrace: 0,
  };
  // Another invocation starting at the same moment: this one goes on with that run (or stops, superseded, when it is gone already).
  try {
    await run(blobSweepRunEntity.create({ bucket }, state));
  } catch (error) {
    if (!(error instanceof ConditionFailed)) throw error;
    const other = await blobSweepRunEntity.get({ bucket }, { consistent: true });
    if (!other) throw error;
    return other;
  }
  const stale = (await blobSweepMarksEntity.query.inBucket({ bucket }).all()).filter((m) => m.runId !== state.runId);
  await mapLimit(stale, 8, (m) => run(blobSweepMarksEntity.delete({ bucket, runId: m.runId, step: m.step, part: m.part })));
  return state;
}

/** The run's next state, written only if no other invocation advanced it since `previous` (ConditionFailed otherwise). */
async function advance(bucket: string, previous: BlobSweepRunItem, next: BlobSweepRunItem): Promise<BlobSweepRunItem> {
  await run(blobSweepRunEntity.replace({ bucket }, next, (w) => w.and(w.eq('runId', previous.runId), w.eq('step', previous.step))));
  return next;
}

/** One Scan page: what its records (and their manifests) name is stored as the run's marks, then the run moves past the page. */
async function markPage(bucket: string, state: BlobSweepRunItem, limit: number): Promise<BlobSweepRunItem> {
  const page = await scanTypesPage(Object.keys(BLOB_FIELDS), Object.values(BLOB_FIELDS).flat(), { after: state.scanAfter, limit });
  const marked = new Set<string>();
  const manifests = new Set<string>();
  for (const record of page.items) {
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
  // Only sha256 keys are ever deleted, so only they need remembering.
  const hashes = [...marked].filter((h) => SHA256.test(h));
  const parts: string[][] = [];
  for (let i = 0; i < hashes.length; i += HASHES_PER_MARKS_ITEM) parts.push(hashes.slice(i, i + HASHES_PER_MARKS_ITEM));
  await mapLimit(parts, 4, (part, index) => run(blobSweepMarksEntity.put(
    { bucket, runId: state.runId, step: state.step, part: index },
    { runId: state.runId, step: state.step, part: index, hashes: Buffer.from(part.join(''), 'hex') },
  )));
  const { scanAfter: _passed, ...rest } = state;
  return advance(bucket, state, {
    ...rest, ...(page.next ? { scanAfter: page.next } : { phase: 'sweep' }), step: state.step + 1,
    markParts: state.markParts + parts.length, marksWritten: state.marksWritten + hashes.length, missingManifests: state.missingManifests + missingManifests,
  });
}

/**
 * Every hash the run's mark stored. Then the run must still be in progress as `state` saw it:
 * a finished run's marks are deleted after its state, so a run still there had all its marks.
 */
async function readMarks(bucket: string, state: BlobSweepRunItem): Promise<Set<string>> {
  const marks = new Set<string>();
  for (const item of await blobSweepMarksEntity.query.ofRun({ bucket, runId: state.runId }).all()) {
    const hex = Buffer.from(item.hashes).toString('hex');
    for (let i = 0; i < hex.length; i += 64) marks.add(hex.slice(i, i + 64));
  }
  const now = await blobSweepRunEntity.get({ bucket }, { consistent: true });
  if (now?.runId !== state.runId || now.step !== state.step) throw new ConditionFailed(now as Record<string, unknown> | undefined);
  return marks;
}

/** The run is over: its state goes first (no invocation can then take its marks as complete), then its marks. */
async function finishRun(bucket: string, state: BlobSweepRunItem): Promise<void> {
  await run(blobSweepRunEntity.delete({ bucket }, (w) => w.and(w.eq('runId', state.runId), w.eq('step', state.step))));
  const marks = await blobSweepMarksEntity.query.ofRun({ bucket, runId: state.runId }).all();
  await mapLimit(marks, 8, (m) => run(blobSweepMarksEntity.delete({ bucket, runId: m.runId, step: m.step, part: m.part })));
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

/**
 * One listing page of `blobs/` after the run's last key: deletes its unmarked blobs written
 * before the cut-off in one DeleteObjects, then moves the run past it (`listed` after the last page).
 */
async function sweepPage(bucket: string, state: BlobSweepRunItem, marked: Set<string>, maxKeys: number): Promise<{ state: BlobSweepRunItem; listed: boolean }> {
  const prefix = blobKey('');
  const page = await s3().send(new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix, StartAfter: state.listAfter, MaxKeys: maxKeys }));
  const doomed: { Key: string }[] = [];
  let keptByGrace = 0;
  const objects = page.Contents ?? [];
  for (const object of objects) {
    const hash = object.Key!.slice(prefix.length);
    // Keys that are not a sha256 were not written by blobs.ts: not this job's to judge.
    if (!SHA256.test(hash) || marked.has(hash)) continue;
    if ((object.LastModified?.getTime() ?? Infinity) < state.cutoffMs) doomed.push({ Key: object.Key! });
    else keptByGrace++;
  }
  if (doomed.length > 0) {
    const out = await s3().send(new DeleteObjectsCommand({ Bucket: bucket, Delete: { Objects: doomed, Quiet: true } }));
    if (out.Errors?.length) {
      throw new Error(`DeleteObjects failed for ${out.Errors.length} of ${doomed.length} blobs: ${out.Errors[0]!.Key} ${out.Errors[0]!.Code}`);
    }
  }
  const next: BlobSweepRunItem = {
    ...state, step: state.step + 1, listAfter: objects.at(-1)?.Key ?? state.listAfter, marked: marked.size,
    listed: state.listed + objects.length, deleted: state.deleted + doomed.length, keptByGrace: state.keptByGrace + keptByGrace,
  };
  // After the last page the run is finished (its record deleted), not advanced.
  return { state: page.IsTruncated ? await advance(bucket, state, next) : next, listed: !page.IsTruncated };
}
