import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { CreateBucketCommand, HeadObjectCommand, ListObjectsV2Command } from '@aws-sdk/client-s3';
import { newOrg, useTestApi, type TestOrg } from './support/api.ts';
import { createRepo, useGitServer } from './support/git-server.ts';
import { settleGit } from './support/git-sync.ts';
import { createChangeRequest, createSpace } from './support/factories.ts';
import { pngFile } from './support/png.ts';
import { s3 } from '../shared/aws/clients.ts';
import { config } from '../shared/config.ts';
import { advanceClock, resetClock } from '../shared/clock.ts';
import { randomId } from '../shared/ids.ts';
import { getJsonBlob, putBytesBlob } from '../shared/content/blobs.ts';
import { blobSweepJobBudget, sweepBlobs, type BlobSweepReport } from '../shared/content/blob-sweep.ts';
import { blobSweepMarksEntity, blobSweepRunEntity } from '../shared/db/entities/blob-sweep.ts';
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { db } from '../shared/db/client.ts';
import { purgeSpace } from '../shared/commands/spaces/purge.ts';
import { enqueue } from '../shared/jobs/enqueue.ts';
import { pollOnce } from '../shared/local/queue-poller.ts';
import type { Manifest, ManifestPage } from '../shared/content/types.ts';
import { storedLike } from './support/stored.ts';
import { revisionEntity } from '../shared/db/entities/revision.ts';
import { openAPISpecEntity } from '../shared/db/entities/openapi-spec.ts';
import { openAPISpecVersionEntity } from '../shared/db/entities/openapi-spec-version.ts';

/**
 * The blob sweep against the real emulators. The table is shared with every other test
 * file, but this file gets a bucket of its own: a sweep with no grace would otherwise delete
 * the blobs other files' edits are writing at that moment (exactly what the grace prevents).
 */
const api = useTestApi();
beforeAll(async () => {
  process.env.BUCKET_NAME = `blob-sweep-${randomId(8).toLowerCase()}`;
  await s3().send(new CreateBucketCommand({ Bucket: config.bucketName }));
});
afterAll(async () => {
  resetClock();
  delete process.env.BLOB_SWEEP_GRACE_HOURS;
});

async function blobKeys(): Promise<Set<string>> {
  const keys = new Set<string>();
  let token: string | undefined;
  do {
    const page = await s3().send(new ListObjectsV2Command({ Bucket: config.bucketName, Prefix: 'blobs/', ContinuationToken: token }));
    for (const o of page.Contents ?? []) keys.add(o.Key!.slice('blobs/'.length));
    token = page.IsTruncated ? page.NextContinuationToken : undefined;
  } while (token);
  return keys;
}

async function headStatus(hash: string): Promise<number> {
  try {
    return (await s3().send(new HeadObjectCommand({ Bucket: config.bucketName, Key: `blobs/${hash}` }))).$metadata.httpStatusCode!;
  } catch (error) {
    return (error as { $metadata: { httpStatusCode: number } }).$metadata.httpStatusCode;
  }
}

/** The object a document reference needs: `<hash>` itself, or the pack of `<hash>@<pack>:<offset>+<length>`. */
const objectOf = (ref: string) => /^[0-9a-f]{64}@([0-9a-f]{64}):\d+\+\d+$/.exec(ref)?.[1] ?? ref;

/** Every blob a space's revisions name, walked here independently of the sweep's own walk. */
async function blobsOfSpace(spaceId: string): Promise<Set<string>> {
  const hashes = new Set<string>();
  for (const record of await storedLike(revisionEntity.key({ spaceId, revisionId: '' }))) {
    const manifest = await getJsonBlob<Manifest>(record.manifest as string);
    hashes.add(record.manifest as string);
    const walk = (pages: ManifestPage[]) => pages.forEach((p) => { if (p.document) hashes.add(objectOf(p.document)); walk(p.pages); });
    walk(manifest.pages);
    manifest.files.forEach((f) => hashes.add(f.blob));
    manifest.reusableContents.forEach((r) => hashes.add(objectOf(r.document)));
  }
  return hashes;
}

/** A space whose primary content has two pages and a file (merged), plus an open change request with one more page. */
async function spaceWithContent(org: TestOrg, label: string) {
  const token = org.admin.token;
  const space = await createSpace(api, org, { title: label });
  const cr = await createChangeRequest(api, org, space, { subject: 'Content' });
  const edit = (changes: unknown[]) => api.request('POST', `/spaces/${space.id}/change-requests/${cr.id}/content`, { token, body: { changes }, query: { compat: false } });
  const first = await edit([
    { operation: 'insert_page', ref: 'guide', title: 'Guide', document: { markdown: `# Guide\n\nOnly in ${label}.\n` } },
    { operation: 'insert_files', files: [{ name: `${label}.png`, contentType: 'image/png', base64: pngFile(2, 2, 0, label).toString('base64') }] },
  ]);
  expect(first.status, JSON.stringify(first.body)).toBe(200);
  const guide = first.body.changes[0].page.id;
  expect((await edit([{ operation: 'insert_page', into: guide, title: 'Nested', document: { markdown: `Nested page of ${label}.\n` } }])).status).toBe(200);
  expect((await api.request('POST', `/spaces/${space.id}/change-requests/${cr.id}/merge`, { token })).status).toBe(200);
  const open = (await api.request('POST', `/spaces/${space.id}/change-requests`, { token, body: { subject: 'Draft' } })).body;
  const draft = await api.request('POST', `/spaces/${space.id}/change-requests/${open.id}/content`, {
    token, body: { changes: [{ operation: 'insert_page', title: 'Draft', document: { markdown: `Draft of ${label}.\n` } }] },
  });
  expect(draft.status).toBe(200);
  return { id: space.id as string, draftId: open.id as string };
}

/** Reads every page document and downloads every file of a content location (primary or a change request): all must answer 200. */
async function readEverything(org: TestOrg, base: string): Promise<number> {
  const token = org.admin.token;
  const pages = await api.request('GET', `${base}/content/pages`, { token });
  expect(pages.status).toBe(200);
  const flat: { id: string }[] = [];
  const walk = (list: { id: string; pages?: unknown[] }[]) => list.forEach((p) => { flat.push(p); walk((p.pages ?? []) as typeof list); });
  walk(pages.body.pages);
  for (const page of flat) expect((await api.request('GET', `${base}/content/page/${page.id}`, { token })).status, page.id).toBe(200);
  const files = await api.request('GET', `${base}/content/files`, { token });
  for (const file of files.body.items) expect((await fetch(file.downloadURL)).status, file.name).toBe(200);
  return flat.length + files.body.items.length;
}

describe('blob sweep (mark and sweep of blobs/)', () => {
  it('deletes only blobs no live record names and older than the grace, keeps every blob content needs, and is idempotent', async () => {
    const org = await newOrg();
    const kept = await spaceWithContent(org, `kept-${randomId(6)}`);
    const purged = await spaceWithContent(org, `purged-${randomId(6)}`);
    // An OpenAPI spec whose inline source is replaced: the first source text is no longer named.
    // Indented, so the source text and the parsed document (stored compact) are two blobs.
    const openapi = (title: string) => JSON.stringify({ openapi: '3.0.0', info: { title, version: '1' }, paths: {} }, null, 2);
    const specBase = `/orgs/${org.id}/openapi/api`;
    expect((await api.request('PUT', specBase, { token: org.admin.token, body: { source: { text: openapi(`first ${randomId(6)}`) } } })).status).toBe(201);
    const [firstSource] = (await storedLike(openAPISpecEntity.key({ orgId: org.id, slug: '' }))).map((r) => r.sourceTextBlob as string);
    expect((await api.request('PUT', specBase, { token: org.admin.token, body: { source: { text: openapi(`second ${randomId(6)}`) } } })).status).toBe(200);
    while ((await pollOnce('jobs', 1)) > 0); // processes the spec: its document becomes a blob too
    const [spec] = await storedLike(openAPISpecEntity.key({ orgId: org.id, slug: '' }));
    expect(spec).toMatchObject({ processingState: 'complete', lastVersionBlob: expect.any(String) });
    // A blob of an edit in flight: written, not yet named by any record.
    const inFlight = await putBytesBlob(Buffer.from(`in flight ${randomId(10)}`));

    const keptBlobs = await blobsOfSpace(kept.id);
    const purgedBlobs = await blobsOfSpace(purged.id);
    // The space is deleted and its retention ends: the purge removes its records, not its blobs (shared with others).
    expect((await api.request('DELETE', `/spaces/${purged.id}`, { token: org.admin.token })).status).toBe(205);
    await purgeSpace(purged.id);
    const shared = [...purgedBlobs].filter((h) => keptBlobs.has(h));
    expect(shared.length).toBeGreaterThan(0); // the empty first page of every new space, at least
    const unreferenced = new Set([...purgedBlobs].filter((h) => !keptBlobs.has(h)).concat(firstSource!, inFlight));
    const before = await blobKeys();
    for (const hash of unreferenced) expect(before.has(hash), hash).toBe(true);

    // Grace of an hour: everything unreferenced was written moments ago, so nothing goes.
    process.env.BLOB_SWEEP_GRACE_HOURS = '1';
    const young = await sweepBlobs();
    expect(young).toMatchObject({ listed: before.size, deleted: 0, keptByGrace: unreferenced.size, graceHours: 1 });
    expect(await blobKeys()).toEqual(before);

    // Two hours later (the service clock), the same run deletes exactly the unreferenced blobs.
    advanceClock(2 * 3_600_000);
    try {
      const report = await sweepBlobs();
      expect(report).toMatchObject({ listed: before.size, deleted: unreferenced.size, keptByGrace: 0 });
      expect(spec!.sourceTextBlob).not.toBe(spec!.lastVersionBlob);
      expect(report.marked).toBeGreaterThanOrEqual(keptBlobs.size + 2);
    } finally {
      resetClock();
    }
    for (const hash of unreferenced) expect(await headStatus(hash), hash).toBe(404);
    expect(await blobKeys()).toEqual(new Set([...before].filter((h) => !unreferenced.has(h))));
    for (const hash of [...keptBlobs, ...shared, spec!.sourceTextBlob as string, spec!.lastVersionBlob as string]) {
      expect(await headStatus(hash), hash).toBe(200);
    }

    // Everything the live content needs still reads: primary content and the open change request.
    expect(await readEverything(org, `/spaces/${kept.id}`)).toBe(4); // Untitled, Guide, Nested, the file
    expect(await readEverything(org, `/spaces/${kept.id}/change-requests/${kept.draftId}`)).toBe(5);
    const source = await api.request('GET', specBase, { token: org.admin.token });
    expect(source.status).toBe(200);

    // The scheduled path: the job on the jobs queue, with no grace at all, finds nothing more to delete.
    process.env.BLOB_SWEEP_GRACE_HOURS = '0';
    const after = await blobKeys();
    await enqueue({ kind: 'blob-sweep' });
    let processed = 0;
    for (let i = 0; i < 10 && processed === 0; i++) processed += await pollOnce('jobs', 1);
    expect(processed).toBe(1);
    expect(await blobKeys()).toEqual(after);
    expect(await sweepBlobs()).toMatchObject({ listed: after.size, deleted: 0, keptByGrace: 0, graceHours: 0 });
    expect(await readEverything(org, `/spaces/${kept.id}`)).toBe(4);
  }, 60_000);

  it('keeps the blobs of an OpenAPI spec\'s earlier versions, which only their version records name', async () => {
    const org = await newOrg();
    const token = org.admin.token;
    const specBase = `/orgs/${org.id}/openapi/versioned`;
    const openapi = (title: string) => JSON.stringify({ openapi: '3.0.0', info: { title, version: '1' }, paths: {} }, null, 2);
    const firstText = openapi(`first ${randomId(6)}`);
    for (const text of [firstText, openapi(`second ${randomId(6)}`)]) {
      expect((await api.request('PUT', specBase, { token, body: { source: { text } } })).status).toBeLessThan(300);
      while ((await pollOnce('jobs', 1)) > 0);
    }
    const versions = (await api.request('GET', `${specBase}/versions`, { token })).body.items;
    expect(versions).toHaveLength(2);
    const [older] = await storedLike(openAPISpecVersionEntity.key({ orgId: org.id, slug: 'versioned', versionId: versions[1].id }));
    process.env.BLOB_SWEEP_GRACE_HOURS = '0';
    try {
      await sweepBlobs();
    } finally {
      delete process.env.BLOB_SWEEP_GRACE_HOURS;
    }
    expect(await headStatus(older!.sourceBlob as string)).toBe(200);
    expect(await headStatus(older!.documentBlob as string)).toBe(200);
    const content = await api.request('GET', `${specBase}/versions/${versions[1].id}/content`, { token });
    expect(content.status).toBe(200);
    expect(content.body.filesystem[0].specification).toEqual(JSON.parse(firstText));
  });

  it('refuses a grace that is not a number of hours ≥ 0, deleting nothing', async () => {
    const orphan = await putBytesBlob(Buffer.from(`orphan ${randomId(10)}`));
    for (const bad of ['-1', 'a day', 'NaN']) {
      process.env.BLOB_SWEEP_GRACE_HOURS = bad;
      await expect(sweepBlobs()).rejects.toThrow(/BLOB_SWEEP_GRACE_HOURS must be a number of hours/);
    }
    // Unset: the default of 24 hours keeps a blob written just now.
    delete process.env.BLOB_SWEEP_GRACE_HOURS;
    expect(await sweepBlobs()).toMatchObject({ graceHours: 24, deleted: 0 });
    expect(await headStatus(orphan)).toBe(200);
  });
});

/** Records in the (shared) table now: page sizes are set from it so that the mark spans several pages whatever else is stored. */
async function tableRecords(): Promise<number> {
  let count = 0;
  let start: Record<string, unknown> | undefined;
  do {
    const page = await db().send(new ScanCommand({ TableName: config.tableName, Select: 'COUNT', ExclusiveStartKey: start }));
    count += page.Count ?? 0;
    start = page.LastEvaluatedKey;
  } while (start);
  return count;
}

/** Two spaces (one purged) and loose blobs: what must go and what must stay. */
async function sweepFixture(orphans: number) {
  const org = await newOrg();
  const kept = await spaceWithContent(org, `kept-${randomId(6)}`);
  const purged = await spaceWithContent(org, `purged-${randomId(6)}`);
  const loose = await Promise.all(Array.from({ length: orphans }, (_, i) => putBytesBlob(Buffer.from(`loose ${i} ${randomId(10)}`))));
  const keptBlobs = await blobsOfSpace(kept.id);
  const purgedBlobs = await blobsOfSpace(purged.id);
  expect((await api.request('DELETE', `/spaces/${purged.id}`, { token: org.admin.token })).status).toBe(205);
  await purgeSpace(purged.id);
  const unreferenced = new Set([...purgedBlobs].filter((h) => !keptBlobs.has(h)).concat(loose));
  return { org, kept, keptBlobs, unreferenced };
}

/** The run's state and marks in the table: none once a run is over. */
const runRecords = async () => ({
  run: await blobSweepRunEntity.get({ bucket: config.bucketName }, { consistent: true }),
  marks: await blobSweepMarksEntity.query.inBucket({ bucket: config.bucketName }).all(),
});

describe('a sweep cut off by its budget (resumable across invocations)', () => {
  it('continues where the previous invocation stopped, in the mark and in the listing, until every unreferenced blob is gone', async () => {
    const { org, kept, keptBlobs, unreferenced } = await sweepFixture(12);
    const before = await blobKeys();
    for (const hash of unreferenced) expect(before.has(hash), hash).toBe(true);
    // About seven Scan pages and seven listing pages, two pages per invocation.
    const budget = { pages: 2, scanPageRecords: Math.ceil((await tableRecords()) / 7), listPageKeys: Math.ceil(before.size / 7) };

    process.env.BLOB_SWEEP_GRACE_HOURS = '1';
    advanceClock(2 * 3_600_000);
    const reports: BlobSweepReport[] = [];
    try {
      for (let i = 0; i < 100 && !reports.at(-1)?.done; i++) {
        reports.push(await sweepBlobs(budget));
        // Between invocations, the run's continuation is in the table; nothing is deleted before the mark is complete.
        if (!reports.at(-1)!.done) expect((await runRecords()).run).toMatchObject({ runId: reports[0]!.runId, step: 2 * reports.length });
        if (reports.at(-1)!.phase === 'mark') expect(await blobKeys()).toEqual(before);
      }
    } finally {
      resetClock();
    }
    const last = reports.at(-1)!;
    expect(last.done).toBe(true);
    expect(new Set(reports.map((r) => r.runId)).size).toBe(1);
    expect(reports.every((r) => r.pages <= 2 && !r.superseded)).toBe(true);
    // Both phases were cut: more than one invocation ended in the mark, more than one in the listing.
    expect(reports.filter((r) => !r.done && r.phase === 'mark').length).toBeGreaterThan(1);
    expect(reports.filter((r) => r.phase === 'sweep').length).toBeGreaterThan(2);
    // Each object listed once (no invocation started over); the unreferenced ones deleted (with any an
    // earlier test of this file left unreferenced), the referenced ones kept.
    expect(last).toMatchObject({ listed: before.size, keptByGrace: 0 });
    expect(last.marked).toBeGreaterThanOrEqual(keptBlobs.size);
    for (const hash of unreferenced) expect(await headStatus(hash), hash).toBe(404);
    for (const hash of keptBlobs) expect(await headStatus(hash), hash).toBe(200);
    const after = await blobKeys();
    expect(last.deleted).toBe(before.size - after.size);
    expect(last.deleted).toBeGreaterThanOrEqual(unreferenced.size);
    for (const hash of after) expect(before.has(hash), hash).toBe(true);
    expect(await readEverything(org, `/spaces/${kept.id}`)).toBe(4);
    // Finished cleanly: no state, no marks; the next sweep is a new run.
    expect(await runRecords()).toEqual({ run: undefined, marks: [] });
    const next = await sweepBlobs();
    expect(next).toMatchObject({ done: true, deleted: 0, listed: after.size });
    expect(next.runId).not.toBe(last.runId);
  }, 120_000);

  it('the blob-sweep job does a share of the run and sends the job that continues it', async () => {
    const { keptBlobs, unreferenced } = await sweepFixture(3);
    const saved = { ...blobSweepJobBudget };
    Object.assign(blobSweepJobBudget, { pages: 1, scanPageRecords: Math.ceil((await tableRecords()) / 3), listPageKeys: 10 });
    process.env.BLOB_SWEEP_GRACE_HOURS = '1';
    advanceClock(2 * 3_600_000);
    // The steps the run was seen at between jobs: one page per job, each job sending the next.
    const steps: number[] = [];
    try {
      await enqueue({ kind: 'blob-sweep' });
      // The jobs queue is shared: other files' jobs may be processed here too, which is harmless.
      for (let i = 0; i < 200; i++) {
        await pollOnce('jobs', 1);
        const { run } = await runRecords();
        if (run) {
          if (steps.at(-1) !== run.step) steps.push(run.step);
        } else if (steps.length > 0) break;
      }
    } finally {
      resetClock();
      Object.assign(blobSweepJobBudget, saved);
      for (const key of Object.keys(blobSweepJobBudget)) if (!(key in saved)) delete (blobSweepJobBudget as Record<string, unknown>)[key];
    }
    expect(steps.length).toBeGreaterThan(3);
    expect(steps).toEqual(steps.map((_, i) => i + 1));
    expect(await runRecords()).toEqual({ run: undefined, marks: [] });
    for (const hash of unreferenced) expect(await headStatus(hash), hash).toBe(404);
    for (const hash of keptBlobs) expect(await headStatus(hash), hash).toBe(200);
  }, 120_000);
});

describe('packs of page documents (a Git import)', () => {
  const server = useGitServer();

  it('keeps a pack while a revision names one of its documents and deletes it once none does', async () => {
    const org = await newOrg();
    const label = randomId(8);
    const files: Record<string, string> = { 'README.md': `# Home\n\nImported ${label}.\n` };
    for (let n = 1; n <= 5; n++) files[`page-${n}.md`] = `# Page ${n}\n\nText ${n} of ${label}.\n`;
    const name = `packs-${label}`;
    await createRepo(server, name, files);
    const space = await createSpace(api, org, { title: label });
    const imported = await api.request('POST', `/spaces/${space.id}/git/import`, { token: org.admin.token, body: { url: `${server.url}/${name}.git`, ref: 'refs/heads/main' } });
    expect(imported.status).toBe(204);
    expect((await settleGit(api, org.admin.token, space.id)).operations.last).toMatchObject({ status: 'succeeded' });

    const named = await blobsOfSpace(space.id);
    const manifestRefs = await storedLike(revisionEntity.key({ spaceId: space.id, revisionId: '' }));
    const documents = (await Promise.all(manifestRefs.map(async (r) => getJsonBlob<Manifest>(r.manifest as string))))
      .flatMap((m) => m.pages.map((p) => p.document)).filter((ref): ref is string => !!ref && ref.includes('@'));
    expect(documents).toHaveLength(6);
    const packs = new Set(documents.map(objectOf));
    expect(packs.size).toBe(1);
    const [pack] = packs;
    expect(named.has(pack!)).toBe(true);
    expect(await headStatus(pack!)).toBe(200);

    // A sweep two hours later (the service clock), past the grace of an hour.
    const sweepLater = async () => {
      process.env.BLOB_SWEEP_GRACE_HOURS = '1';
      advanceClock(2 * 3_600_000);
      try {
        return await sweepBlobs();
      } finally {
        resetClock();
      }
    };
    // Long after the import, the sweep keeps the pack: the space's revision names its documents.
    await sweepLater();
    expect(await headStatus(pack!)).toBe(200);
    expect(await readEverything(org, `/spaces/${space.id}`)).toBe(6);

    // Once the space is purged, nothing names the pack: it goes.
    expect((await api.request('DELETE', `/spaces/${space.id}`, { token: org.admin.token })).status).toBe(205);
    await purgeSpace(space.id);
    await sweepLater();
    expect(await headStatus(pack!)).toBe(404);
  }, 60_000);
});

describe('records that name blobs', () => {
  it('every module that writes a blob is one whose hash the sweep knows where to find (add new ones to BLOB_FIELDS)', () => {
    // Where each writer's hash ends up: a manifest (walked from revisions) or a field of BLOB_FIELDS.
    const known: Record<string, string> = {
      'shared/content/revisions.ts': 'revision.manifest',
      'shared/content/changes.ts': 'manifest pages',
      'shared/content/initial.ts': 'manifest pages',
      'shared/content/file-input.ts': 'manifest files',
      'shared/content/merge/manifests.ts': 'manifest pages',
      'shared/translate/manifest.ts': 'manifest pages and reusable contents',
      'shared/git/import.ts': 'manifest pages, files and reusable contents (documents in packs)',
      'shared/content/blob-packs.ts': 'packs: the documents of manifest pages and reusable contents name them',
      'shared/content/pdf/export.ts': 'pdf-export.blob',
      'shared/commands/openapi/source.ts': 'openapi-spec.sourceTextBlob',
      'shared/commands/openapi/process.ts': 'openapi-spec.lastVersionBlob, openapi-spec-version.documentBlob and sourceBlob',
      'shared/commands/integrations/publish.ts': 'integration.iconBlob, previewImageBlobs, scriptBlob',
      'shared/commands/translations/run.ts': 'translation.sourceHashes',
    };
    const root = new URL('..', import.meta.url).pathname;
    const writers: string[] = [];
    const visit = (dir: string) => {
      for (const entry of readdirSync(dir, { withFileTypes: true })) {
        const path = join(dir, entry.name);
        if (entry.isDirectory()) visit(path);
        else if (entry.name.endsWith('.ts') && /\bput(Json|Bytes)Blob\(|\bputJsonText\(|\bnew JsonBlobPacker\(/.test(readFileSync(path, 'utf8'))) writers.push(relative(root, path));
      }
    };
    for (const dir of ['shared', 'functions']) visit(join(root, dir));
    expect(writers.filter((w) => w !== 'shared/content/blobs.ts').sort()).toEqual(Object.keys(known).sort());
  });
});
