import '../support/quiet-logs.ts';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db } from '../../shared/db/client.ts';
import { s3 } from '../../shared/aws/clients.ts';
import { startBenchStack } from '../support/local-stack.ts';
import { config } from '../../shared/config.ts';
import { spaceEntity } from '../../shared/db/entities/space.ts';
import { putJsonBlob } from '../../shared/content/blobs.ts';
import { prepareRevision } from '../../shared/content/revisions.ts';
import { markdownToDocument } from '../../shared/content/markdown/index.ts';
import { emptyManifest, type Manifest, type ManifestPage } from '../../shared/content/types.ts';
import { randomId } from '../../shared/ids.ts';
import { median, ms, ratio, summarize, table } from '../api/stats.ts';
import { KeepAliveClient } from '../api/http-client.ts';
import { run } from '../../shared/db/writes.ts';
import { startServerProcess, type ServerProcess } from '../support/server-process.ts';

/**
 * `npm run bench:content`: how content operations scale, in one run against in-memory
 * emulators on 127.0.0.1:
 * - writes (DynamoDB write calls + S3 puts) of a one-page edit as the space grows to 5,000
 *   pages: must stay constant;
 * - GET /content of every size against JSON.stringify of the same tree: <= 2x at 5,000 pages
 *   (the space; the response is read as bytes: the client's JSON.parse is not the
 *   server's cost). Smaller sizes are printed for the slope, not gated: under ~2,000 pages
 *   JSON.stringify of the tree takes less than any authenticated request that reads storage
 *   (bench:api's floor, a bare Hono app doing one GetItem), so their ratio measures the
 *   request, not the tree;
 * - search over 1,000 and 10,000 pages, warm (the revision's index already in memory),
 *   distinct two-word queries: p50 <= 20 ms, p99 <= 60 ms.
 * The timed reads (GET /content, search) go to the API served by a process of its own
 * (bench/support/server-process.ts), as bench:api's: in this process it would share one thread
 * with the client and the garbage of building the spaces. The edits are made in this process,
 * whose SDK clients count the writes.
 * Knobs: BENCH_SIZES (comma list, default 500,1000,5000), BENCH_SEARCH_PAGES (comma list,
 * 1000,10000), BENCH_SEARCHES (queries per size, 200), BENCH_GETS (GET /content samples, 15).
 * BENCH_QUICK=1: 60 queries and 7 GET samples per size (a loaded machine).
 */
const QUICK = process.env.BENCH_QUICK === '1';
const sizes = (process.env.BENCH_SIZES ?? '500,1000,5000').split(',').map(Number);
const searchSizes = (process.env.BENCH_SEARCH_PAGES ?? '1000,10000').split(',').map(Number);
const SEARCHES = Number(process.env.BENCH_SEARCHES ?? (QUICK ? 60 : 200));
const GETS = Number(process.env.BENCH_GETS ?? (QUICK ? 7 : 15));
/** Small authenticated GETs through the server process before the timed reads. */
const WARM_UP_GETS = 500;
const targets = { contentRatio: 2, contentFromPages: 5000, searchP50: 20, searchP99: 60 };
const verdicts: string[][] = [];
const verdict = (measure: string, value: string, target: string, pass: boolean) => verdicts.push([measure, value, target, pass ? 'PASS' : 'MISS']);
const out = (text = '') => console.log(text);
const started = performance.now();
const progress = (message: string) => process.stderr.write(`[${((performance.now() - started) / 1000).toFixed(1)}s] ${message}\n`);
const watchdog = setTimeout(() => {
  console.error('bench:content watchdog: stopping after 8 minutes');
  process.exit(2);
}, 8 * 60_000);

// Count writes the way they cost: every DynamoDB write call and every S3 object put.
const writes = { dynamodb: 0, s3: 0 };
const dynamoWrites = new Set(['PutItemCommand', 'UpdateItemCommand', 'DeleteItemCommand', 'TransactWriteItemsCommand', 'BatchWriteItemCommand']);

const vocabulary = 'install configure deploy token webhook pagination cursor quota region bucket queue lambda table index schema migrate rollback release preview publish space collection site section reader search markdown revision merge conflict branch'.split(' ');
const words = (seed: number, n: number) => Array.from({ length: n }, (_, i) => vocabulary[(seed * 7 + i * 13) % vocabulary.length]).join(' ');

async function main() {
  const stack = await startBenchStack('bench-content');
  let server: ServerProcess | undefined;
  try {
    const { user, org, call } = stack;
    db().middlewareStack.add((next, context) => async (args) => {
      if (dynamoWrites.has(context.commandName ?? '')) writes.dynamodb++;
      return next(args);
    }, { step: 'initialize', name: 'benchCountWrites' });
    s3().middlewareStack.add((next, context) => async (args) => {
      if (context.commandName === 'PutObjectCommand') writes.s3++;
      return next(args);
    }, { step: 'initialize', name: 'benchCountPuts' });

    /** A space whose primary revision holds `n` pages (sections of 50 pages). */
    async function spaceWithPages(n: number): Promise<{ id: string; pageId: string; manifest: Manifest }> {
      const space = (await call('POST', `/orgs/${org.id}/spaces`, { title: `${n} pages`, empty: true })).body;
      const manifest = emptyManifest();
      const now = new Date().toISOString();
      const pages: ManifestPage[] = [];
      const documents = await pool(n, 16, async (i) => putJsonBlob(markdownToDocument(
        `## ${words(i, 3)}\n\n${words(i + 1, 40)} page${i}\n\n### ${words(i + 2, 2)}\n\n${words(i + 3, 30)}\n`).document));
      for (let i = 0; i < n; i++) {
        const page: ManifestPage = { id: randomId(), type: 'document', title: `Page ${i} ${words(i, 2)}`, slug: `page-${i}`, document: documents[i], createdAt: now, updatedAt: now, pages: [] };
        if (i % 50 === 0) pages.push(page);
        else pages.at(-1)!.pages.push(page);
      }
      manifest.pages = pages;
      const { revision, put } = await prepareRevision({ spaceId: space.id, manifest, parents: [space.revision], type: 'edits', createdBy: user.id });
      await db().send(new UpdateCommand({ TableName: config.tableName, Key: spaceEntity.key({ spaceId: space.id }), UpdateExpression: 'SET revision = :r', ExpressionAttributeValues: { ':r': revision.id } }));
      await run(put);
      return { id: space.id, pageId: pages[0]!.pages[0]!.id, manifest };
    }

    // 1. Writes per one-page edit as the space grows.
    const editRows: string[][] = [];
    const perEdit: number[] = [];
    const spaces: { n: number; id: string }[] = [];
    for (const n of sizes) {
      progress(`space of ${n} pages`);
      const space = await spaceWithPages(n);
      spaces.push({ n, id: space.id });
      const cr = (await call('POST', `/spaces/${space.id}/change-requests`, { subject: 'Edit one page' })).body;
      const before = { ...writes };
      const t0 = performance.now();
      await call('POST', `/spaces/${space.id}/change-requests/${cr.id}/content`, {
        changes: [{ operation: 'update_page', page: space.pageId, document: { markdown: `Edited at ${n}.\n` } }],
      });
      const elapsed = performance.now() - t0;
      const dynamo = writes.dynamodb - before.dynamodb;
      const puts = writes.s3 - before.s3;
      perEdit.push(dynamo + puts);
      editRows.push([String(n), String(dynamo), String(puts), String(dynamo + puts), ms(elapsed, 1)]);
    }
    out('== 1. One-page edit: writes as the space grows ==');
    out(table(['pages', 'DynamoDB writes', 'S3 puts', 'writes', 'ms'], editRows));
    const growth = perEdit.at(-1)! / perEdit[0]!;
    out(`writes per edit, ${sizes.at(-1)} pages / ${sizes[0]} pages: ${ratio(growth)} (target: constant, 1.00x)`);
    verdict(`writes per one-page edit, ${sizes.at(-1)} / ${sizes[0]} pages`, `${ratio(growth)} (${perEdit.join(' / ')})`, 'constant', growth === 1);

    // 2. GET /content of every space against JSON.stringify of the same tree.
    server = await startServerProcess({}, progress);
    const api = `http://127.0.0.1:${server.ports.local}`;
    const client = new KeepAliveClient(api, { authorization: `Bearer ${stack.token}` });
    // What fetch, @gitbook/api and browsers send (printed beside the target, not gated).
    const fetchLike = new KeepAliveClient(api, { authorization: `Bearer ${stack.token}`, 'accept-encoding': 'gzip, deflate, br' });
    const contentRows: string[][] = [];
    // The server process and DynamoDB Local start cold (bench:api warms both the same way).
    for (let i = 0; i < WARM_UP_GETS; i++) await getBytes(client, `/spaces/${spaces[0]!.id}`);
    for (const { n, id } of spaces) {
      progress(`GET /content, ${n} pages`);
      const path = `/spaces/${id}/content`;
      const tree = JSON.parse((await getBytes(client, path)).toString('utf8')) as unknown;
      const { samples, bytes } = await timedGets(client, path);
      const stringify: number[] = [];
      for (let i = 0; i < GETS; i++) {
        const t = performance.now();
        JSON.stringify(tree);
        stringify.push(performance.now() - t);
      }
      const gzipped = await timedGets(fetchLike, path);
      const getP50 = median(samples);
      const strP50 = median(stringify);
      const r = getP50 / strP50;
      const gated = n >= targets.contentFromPages;
      contentRows.push([String(n), (bytes / 1024).toFixed(0), ms(getP50, 1), ms(strP50, 2), ratio(r), gated ? (r <= targets.contentRatio ? 'PASS' : 'MISS') : '',
        `${ms(median(gzipped.samples), 1)} (${(gzipped.bytes / 1024).toFixed(0)} KB)`]);
      if (gated) verdict(`GET /content ${n} pages / JSON.stringify`, `${ratio(r)} (${ms(getP50, 1)} / ${ms(strP50, 2)} ms)`, `<= ${targets.contentRatio}x`, r <= targets.contentRatio);
    }
    out();
    fetchLike.close();
    out(`== 2. GET /content (p50 of ${GETS}, node:http keep-alive client, response read as bytes) against JSON.stringify of the same tree (p50) ==`);
    out(table(['pages', 'KB', 'GET ms', 'stringify ms', 'ratio', `<= ${targets.contentRatio}x`, 'GET with Accept-Encoding ms (sent)'], contentRows));
    out('GET with Accept-Encoding: as fetch, @gitbook/api and browsers ask (gzip, deflate, br), the answer read as sent; not gated.');

    // 3. Search, warm: the probe builds (and stores) the index; the timed queries are distinct.
    const searchRows: string[][] = [];
    for (const n of searchSizes) {
      progress(`space of ${n} pages for search`);
      const searchSpace = await spaceWithPages(n);
      const t0 = performance.now();
      // Not the keep-alive client: building 10,000 pages' index may take longer than its 10 s timeout.
      const probe = await fetch(`${api}/v1/spaces/${searchSpace.id}/search?query=deploy`, { headers: { authorization: `Bearer ${stack.token}` }, signal: AbortSignal.timeout(120_000) });
      const build = performance.now() - t0;
      if (probe.status !== 200) throw new Error(`search: ${probe.status} ${(await probe.text()).slice(0, 200)}`);
      await probe.arrayBuffer();
      const searches: number[] = [];
      let results = 0;
      for (let i = 0; i < SEARCHES; i++) {
        const t = performance.now();
        const res = await client.send('GET', `/v1/spaces/${searchSpace.id}/search?query=${encodeURIComponent(distinctQuery(i))}`);
        searches.push(performance.now() - t);
        if (res.status !== 200) throw new Error(`search: ${res.status} ${res.body.slice(0, 200)}`);
        results += (JSON.parse(res.body) as { items: unknown[] }).items.length;
      }
      const s = summarize(searches);
      const pass = s.p50 <= targets.searchP50 && s.p99 <= targets.searchP99;
      searchRows.push([String(n), ms(build, 0), ms(s.p50, 2), ms(s.p99, 2), (results / SEARCHES).toFixed(1), pass ? 'PASS' : 'MISS']);
      verdict(`search ${n} pages, warm p50 / p99`, `${ms(s.p50, 1)} / ${ms(s.p99, 1)} ms`, `<= ${targets.searchP50} / ${targets.searchP99} ms`, pass);
    }
    out();
    out(`== 3. Search, ${SEARCHES} distinct two-word queries per size, index warm ==`);
    out(table(['pages', 'first search (build) ms', 'p50 ms', 'p99 ms', 'results/query', `p50 <= ${targets.searchP50}, p99 <= ${targets.searchP99}`], searchRows));
    out();
    out(`== SUMMARY ==`);
    out(table(['measure', 'value', 'target', 'result'], verdicts));
    client.close();
  } finally {
    await server?.stop();
    await stack.stop();
    clearTimeout(watchdog);
  }
}

/** The i-th of 870 distinct two-word queries over the vocabulary (no query repeats: no result cache helps). */
function distinctQuery(i: number): string {
  const a = i % vocabulary.length;
  const b = (a + 1 + Math.floor(i / vocabulary.length)) % vocabulary.length;
  return `${vocabulary[a]} ${vocabulary[b]}`;
}

/** GET as the bench user over one keep-alive node:http socket, the body as bytes (not parsed); throws on a status other than 200. */
async function getBytes(client: KeepAliveClient, path: string): Promise<Buffer> {
  const res = await client.sendRaw('GET', `/v1${path}`);
  if (res.status !== 200) throw new Error(`GET ${path}: ${res.status} ${res.body.toString('utf8', 0, 200)}`);
  return res.body;
}

/** GETS sequential GETs of `path`: their milliseconds, and the bytes of an answer as sent. */
async function timedGets(client: KeepAliveClient, path: string): Promise<{ samples: number[]; bytes: number }> {
  const samples: number[] = [];
  let bytes = 0;
  for (let i = 0; i < GETS; i++) {
    const t = performance.now();
    bytes = (await getBytes(client, path)).byteLength;
    samples.push(performance.now() - t);
  }
  return { samples, bytes };
}

/** Runs `work(i)` for i < n with at most `width` in flight; results in order. */
async function pool<T>(n: number, width: number, work: (i: number) => Promise<T>): Promise<T[]> {
  const results = new Array<T>(n);
  let next = 0;
  await Promise.all(Array.from({ length: width }, async () => {
    while (next < n) {
      const i = next++;
      results[i] = await work(i);
    }
  }));
  return results;
}

await main();
