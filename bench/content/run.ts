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

/**
 * `npm run bench:content`: how content operations scale, in one run against in-memory
 * emulators on 127.0.0.1:
 * - writes (DynamoDB write calls + S3 puts) of a one-page edit as the space grows to 5,000
 *   pages: must stay constant;
 * - GET /content of a 5,000-page space against JSON.stringify of the same tree;
 * - search p50 over a 10,000-page space (after the index is built once).
 * Knobs: BENCH_SIZES (comma list, default 500,1000,5000), BENCH_SEARCH_PAGES (10000).
 */
const sizes = (process.env.BENCH_SIZES ?? '500,1000,5000').split(',').map(Number);
const SEARCH_PAGES = Number(process.env.BENCH_SEARCH_PAGES ?? 10_000);
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
      await put.go();
      return { id: space.id, pageId: pages[0]!.pages[0]!.id, manifest };
    }

    // 1. Writes per one-page edit as the space grows.
    const editRows: string[][] = [];
    const perEdit: number[] = [];
    let big: Awaited<ReturnType<typeof spaceWithPages>> | undefined;
    for (const n of sizes) {
      progress(`space of ${n} pages`);
      const space = await spaceWithPages(n);
      if (n === Math.max(...sizes)) big = space;
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

    // 2. GET /content of the biggest space against JSON.stringify of the same tree.
    progress('GET /content');
    const path = `/spaces/${big!.id}/content`;
    const first = await call('GET', path);
    const samples: number[] = [];
    for (let i = 0; i < 15; i++) {
      const t = performance.now();
      await call('GET', path);
      samples.push(performance.now() - t);
    }
    const stringify: number[] = [];
    for (let i = 0; i < 15; i++) {
      const t = performance.now();
      JSON.stringify(first.body);
      stringify.push(performance.now() - t);
    }
    const getP50 = median(samples);
    const strP50 = median(stringify);
    out();
    out(`== 2. GET /content of a ${sizes.at(-1)}-page space (${(first.bytes / 1024).toFixed(0)} KB) ==`);
    out(`p50 ${ms(getP50, 1)} ms vs JSON.stringify of the same tree ${ms(strP50, 2)} ms: ${ratio(getP50 / strP50)}`);

    // 3. Search over 10,000 pages.
    progress(`space of ${SEARCH_PAGES} pages for search`);
    const searchSpace = await spaceWithPages(SEARCH_PAGES);
    const probe = await call('GET', `/spaces/${searchSpace.id}/search?query=deploy`);
    out();
    out(`== 3. Search over ${SEARCH_PAGES} pages ==`);
    if (probe.status === 501) {
      out('search is not implemented yet (501): n/a');
    } else {
      const t0 = performance.now();
      await call('GET', `/spaces/${searchSpace.id}/search?query=webhook`);
      const firstSearch = performance.now() - t0;
      const searches: number[] = [];
      for (let i = 0; i < 200; i++) {
        const query = `${vocabulary[i % vocabulary.length]} ${vocabulary[(i * 5) % vocabulary.length]}`;
        const t = performance.now();
        await call('GET', `/spaces/${searchSpace.id}/search?query=${encodeURIComponent(query)}`);
        searches.push(performance.now() - t);
      }
      const s = summarize(searches);
      out(`second search (index already built by the probe, loaded from cache): ${ms(firstSearch, 1)} ms`);
      out(`p50 ${ms(s.p50, 2)} ms, p99 ${ms(s.p99, 2)} ms over 200 two-word queries`);
    }
    out();
    out(`== SUMMARY ==`);
    out(`writes per one-page edit: ${perEdit.join(' / ')} for ${sizes.join(' / ')} pages (${ratio(growth)}) ${growth === 1 ? 'PASS' : 'MISS'}`);
    out(`GET /content / JSON.stringify: ${ratio(getP50 / strP50)}`);
  } finally {
    await stack.stop();
    clearTimeout(watchdog);
  }
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
