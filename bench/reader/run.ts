import '../support/quiet-logs.ts';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { db } from '../../shared/db/client.ts';
import { config } from '../../shared/config.ts';
import { siteEntity } from '../../shared/db/entities/site.ts';
import { startBenchStack } from '../support/local-stack.ts';
import { KeepAliveClient } from '../api/http-client.ts';
import { ratio, summarize, table } from '../api/stats.ts';

/**
 * `npm run bench:reader`: what a published page costs the reader, in one run against the
 * embedded emulators, at two site sizes (the slope). Each request is sequential over a
 * keep-alive connection, without Accept-Encoding (compression is the same work for any
 * server). **The floor**: a bare node:http server of the same process answering the same
 * page's bytes after one GetItem of the site's record, over the same kind of connection: the
 * least any server that checks a published site can do.
 * - a page viewed again (the instance rendered it before: rendered-pages.ts);
 * - every page once, in order (each a first rendering);
 * - the page as markdown, the sitemap, the instant search's JSON.
 * No target (no issue sets one): the ratios are printed for the slope and for comparison.
 * Knobs: BENCH_SIZES (comma list, default 50,500), BENCH_N (samples, 200), BENCH_QUICK=1 (60).
 */
const QUICK = process.env.BENCH_QUICK === '1';
const sizes = (process.env.BENCH_SIZES ?? '50,500').split(',').map(Number);
const N = Number(process.env.BENCH_N ?? (QUICK ? 60 : 200));
const out = (text = '') => console.log(text);
const started = performance.now();
const progress = (message: string) => process.stderr.write(`[${((performance.now() - started) / 1000).toFixed(1)}s] ${message}\n`);
const watchdog = setTimeout(() => {
  console.error('bench:reader watchdog: stopping after 8 minutes');
  process.exit(2);
}, 8 * 60_000);

const markdown = (i: number) => [
  `# Page ${i}`, '', `Some **bold** text, _emphasis_, \`code\` and a [link](https://example.com/${i}).`, '',
  '* one', '* two', '  * nested', '', '| a | b |', '|---|---|', `| ${i} | y |`, '',
  '{% hint style="info" %}', 'A hint.', '{% endhint %}', '', '```js', `const answer = ${i};`, 'console.log(answer);', '```', '',
  '## Details', '', `Text ${'lorem ipsum dolor sit amet '.repeat(40)}`, '',
].join('\n');

/** Sequential requests: their milliseconds, and this process's CPU per request (the reader and the client, every thread) in µs. */
async function timed(n: number, request: (i: number) => Promise<{ status: number; body: Buffer }>): Promise<{ samples: number[]; cpuUs: number }> {
  const samples: number[] = [];
  const cpu = process.cpuUsage();
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    const res = await request(i);
    samples.push(performance.now() - t);
    if (res.status !== 200) throw new Error(`status ${res.status}: ${res.body.toString().slice(0, 200)}`);
  }
  const used = process.cpuUsage(cpu);
  return { samples, cpuUs: (used.user + used.system) / n };
}

async function main() {
  const stack = await startBenchStack('bench-reader');
  const rows: string[][] = [];
  try {
    for (const size of sizes) {
      progress(`site of ${size} pages`);
      const { org, call } = stack;
      const space = (await call('POST', `/orgs/${org.id}/spaces`, { title: `Reader ${size}` })).body;
      const cr = (await call('POST', `/spaces/${space.id}/change-requests`, { subject: 'pages' })).body;
      for (let b = 0; b < size; b += 50) {
        const changes = Array.from({ length: Math.min(50, size - b) }, (_, i) => ({ operation: 'insert_page', document: { markdown: markdown(b + i) } }));
        await call('POST', `/spaces/${space.id}/change-requests/${cr.id}/content`, { changes });
      }
      await call('POST', `/spaces/${space.id}/change-requests/${cr.id}/merge`);
      const site = (await call('POST', `/orgs/${org.id}/sites`, { title: `Reader ${size}`, visibility: 'public', spaces: [space.id] })).body;
      const published = new URL((await call('POST', `/orgs/${org.id}/sites/${site.id}/publish`)).body.urls.published);
      const client = new KeepAliveClient(published.origin);
      // What browsers send: the same page, gzipped by the reader.
      const browser = new KeepAliveClient(published.origin, { 'accept-encoding': 'gzip, deflate, br' });
      const base = published.pathname;
      const page = `${base}/page-${Math.floor(size / 2)}`;
      const pageBytes = (await client.sendRaw('GET', page)).body;

      // The floor: one GetItem of the site's record, then the same bytes.
      const floor: Server = createServer(async (_req, res) => {
        await db().send(new GetCommand({ TableName: config.tableName, Key: siteEntity.key({ siteId: site.id }) }));
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-length': pageBytes.length }).end(pageBytes);
      });
      await new Promise<void>((r) => floor.listen(0, '127.0.0.1', r));
      const floorClient = new KeepAliveClient(`http://127.0.0.1:${(floor.address() as AddressInfo).port}`);
      try {
        await timed(20, () => floorClient.sendRaw('GET', '/'));
        await timed(20, () => client.sendRaw('GET', page));
        const floor = await timed(N, () => floorClient.sendRaw('GET', '/'));
        const floorMs = summarize(floor.samples).p50;
        const measures: [string, { samples: number[]; cpuUs: number }][] = [
          ['page viewed again (HTML)', await timed(N, () => client.sendRaw('GET', page))],
          ['page viewed again, Accept-Encoding as browsers send it (gzip)', await timed(N, () => browser.sendRaw('GET', page))],
          ['every page once, in order (HTML, first rendering)', await timed(size, (i) => client.sendRaw('GET', `${base}/page-${i}`))],
          ['page as markdown (.md), again', await timed(N, () => client.sendRaw('GET', `${page}.md`))],
          ['sitemap.xml', await timed(Math.min(N, 60), () => client.sendRaw('GET', `${base}/sitemap.xml`))],
          ['instant search JSON (~search?q=), distinct queries', await timed(Math.min(N, 60), (i) => client.sendRaw('GET', `${base}/~search?q=page+${i}`))],
        ];
        rows.push([`${size} pages: floor (GetItem + the page's ${Math.round(pageBytes.length / 1024)} KB)`, floorMs.toFixed(2), '1.00x', '', floor.cpuUs.toFixed(0)]);
        for (const [name, { samples, cpuUs }] of measures) {
          const s = summarize(samples);
          rows.push([`${size} pages: ${name}`, s.p50.toFixed(2), ratio(s.p50 / floorMs), s.p99.toFixed(2), cpuUs.toFixed(0)]);
        }
      } finally {
        await new Promise<void>((r) => floor.close(() => r()));
      }
    }
    out(`== bench:reader: sequential keep-alive GETs, p50 against the floor in the same run${QUICK ? ' (BENCH_QUICK)' : ''} ==`);
    out(table(['measure', 'p50 ms', 'ratio', 'p99 ms', 'CPU µs/req'], rows));
    out('CPU µs/req: this process\'s CPU per request, every thread (the reader, the client, the in-process S3 emulator; not DynamoDB Local\'s JVM).');
  } finally {
    clearTimeout(watchdog);
    await stack.stop();
  }
}

main().then(() => process.exit(0), (error: unknown) => {
  console.error(error);
  process.exit(1);
});
