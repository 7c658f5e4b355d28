import '../support/quiet-logs.ts';
import { fork, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { randomBytes } from 'node:crypto';
import { Checkout } from '../../shared/git/repo.ts';
import { IMPORT_CONCURRENCY } from '../../shared/git/import.ts';
import { createRepo, git, pngFile, startGitServer, type GitServer } from '../../test/support/git-server.ts';
import { largePng } from './large-png.ts';
import { markdownToDocument } from '../../shared/content/markdown/parse.ts';
import { parseSummary } from '../../shared/git/format.ts';
import { median, ratio, table } from '../api/stats.ts';
import { startBenchStack, type BenchStack } from '../support/local-stack.ts';
import { sampleRss } from './rss-sampler.ts';
import { cpuMs } from '../support/proc-cpu.ts';
import { projectNodeBinary } from '../support/project-node.ts';
import { GIT_WORKER_NODE_OPTIONS } from '../../infra/lambda-node.ts';

/**
 * `npm run bench:git`: import of generated repositories against `git clone --depth 1
 * --single-branch` of the same repository, in one run, all on 127.0.0.1: the repository is
 * served by `git http-backend` (test/support/git-server.ts), the service runs against
 * in-memory emulators, and the git worker runs in its own process (as a Lambda) so its peak
 * RSS is its own. Each round imports into a new space with a fresh worker process (cold: its
 * first job), then again with the same process (warm: a Lambda instance kept between jobs),
 * then another repository of the same shape with that process (warm, nothing of it cached).
 * A job's time runs from the API call that enqueues it to the moment the worker's handler
 * returns (the revision is primary then); the full GCs the worker runs to take its heap
 * figures happen before and after that window.
 * Two shapes (issue 17): "generated" (1,000 pages, 200 small assets) and "real" (the shape of
 * the slowest real documentation repository: 220 pages and 250 large images of 100-500 KB).
 * Targets: import <= 3x git clone, worker peak RSS < 512 MB (issue 17's bound; the git Lambda has
 * 1,769 MB since 2026-11-28, for one whole vCPU, infra/constructs/workers.ts).
 * The slope (issue 17: "print each figure at two or three sizes"): repositories of the generated
 * shape at BENCH_SIZES pages (a fifth as many assets), each imported by one warm worker as a
 * repository it has never seen, beside a git clone of it; printed, not gated.
 * Knobs: BENCH_PAGES (1000), BENCH_ASSETS (200), BENCH_REAL_PAGES (220), BENCH_REAL_IMAGES
 * (250), BENCH_SHAPES (generated,real), BENCH_SIZES (250,500,1000; "0" skips the slope),
 * BENCH_ROUNDS (3; BENCH_QUICK=1: 1), BENCH_CLONES (3: clones per measurement of the floor),
 * BENCH_TMPFS (/dev/shm: where the diagnostic clone goes; "" skips it), BENCH_STACK_WARMUP (3:
 * jobs that warm the emulators first), BENCH_CPU_PROF (a folder: CPU profiles of the git worker
 * process), BENCH_TRACE_GC=1 (the worker's garbage collections on its stdout).
 */
const intEnv = (name: string, fallback: number) => {
  const value = Number(process.env[name]);
  return Number.isFinite(value) && value > 0 ? Math.floor(value) : fallback;
};
const QUICK = process.env.BENCH_QUICK === '1';
const PAGES = intEnv('BENCH_PAGES', 1000);
const ASSETS = intEnv('BENCH_ASSETS', 200);
const REAL_PAGES = intEnv('BENCH_REAL_PAGES', 220);
const REAL_IMAGES = intEnv('BENCH_REAL_IMAGES', 250);
const SHAPES = (process.env.BENCH_SHAPES ?? 'generated,real').split(',');
const ROUNDS = intEnv('BENCH_ROUNDS', QUICK ? 1 : 3);
/**
 * A memory file system for the diagnostic clone: the floor clones into the OS temp folder (on
 * this machine an ext4 disk mounted with `discard`), where writing and then deleting a checkout
 * of 1,200 files takes 0.24-0.88 s depending on the disk's state; into tmpfs the same clone
 * takes 0.20-0.26 s. Printed beside the floor, not gated ("" or a missing folder skips it).
 */
const TMPFS = process.env.BENCH_TMPFS ?? '/dev/shm';
const SIZES = (process.env.BENCH_SIZES ?? '250,500,1000').split(',').map(Number).filter((n) => Number.isInteger(n) && n > 0);
const SECTION = 50;
const targets = { ratio: 3, rssBytes: 512 * 1024 * 1024 };

const here = dirname(fileURLToPath(import.meta.url));
const projectRoot = fileURLToPath(new URL('../..', import.meta.url));
const out = (text = '') => console.log(text);
const started = performance.now();
const progress = (message: string) => process.stderr.write(`[${((performance.now() - started) / 1000).toFixed(1)}s] ${message}\n`);
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;
const watchdog = setTimeout(() => {
  console.error('bench:git watchdog: stopping after 8 minutes');
  void cleanup().finally(() => process.exit(2));
}, 8 * 60_000);

let stack: BenchStack | undefined;
let gitServer: GitServer | undefined;
const children = new Set<ChildProcess>();

async function cleanup() {
  for (const child of children) child.kill();
  await gitServer?.close();
  await stack?.stop();
}

type AssetKind = 'mixed' | 'large-images';
const assetName = (n: number, kind: AssetKind) => (kind === 'mixed' && n % 2 ? `data-${String(n).padStart(4, '0')}.bin` : `figure-${String(n).padStart(4, '0')}.png`);

/**
 * Small assets: half 64x64 PNGs, half 4-16 KB of random bytes. Large: screenshots of 100-500 KB
 * that do not compress. Another `edition` has other images of the same sizes.
 */
function assetBytes(n: number, kind: AssetKind, edition: number): Uint8Array {
  if (kind === 'large-images') return largePng(100 * 1024 + ((n * 7919) % (400 * 1024)), n + (edition - 1) * 100_000);
  return n % 2 ? randomBytes(4096 + ((n * 997) % 12288)) : pngFile(64, 64, n + 1, edition > 1 ? `edition ${edition} ${n}` : undefined);
}

/**
 * `pages` pages in sections of 50 (a folder README, 39 pages, 10 deeper pages under
 * `<section>/deep/` nested in the SUMMARY), listed in a SUMMARY.md with a group every 5
 * sections, each page a few paragraphs with a heading, a hint, a list, a code block, a link
 * to its section and an image; `assets` files under .gitbook/assets, half 64x64 PNGs, half
 * 4-16 KB binary files of random bytes. Another `edition` has the same shape, and not one
 * page or asset of the same bytes (another repository, to the worker's caches).
 */
function generate(pages: number, assets: number, kind: AssetKind, edition = 1): Record<string, string | Uint8Array> {
  const files: Record<string, string | Uint8Array> = {};
  for (let n = 0; n < assets; n++) files[`.gitbook/assets/${assetName(n, kind)}`] = assetBytes(n, kind, edition);
  const summary = ['# Table of contents', ''];
  const of = edition > 1 ? `, edition ${edition}` : '';
  files['README.md'] = `# Welcome\n\nA generated documentation repository${of}.\n`;
  summary.push(`* [Welcome${of}](README.md)`);
  let made = 1;
  for (let s = 0; made < pages; s++) {
    if (s % 5 === 0) summary.push('', `## Part ${s / 5 + 1}`, '');
    const dir = `section-${String(s).padStart(3, '0')}`;
    files[`${dir}/README.md`] = `# Section ${s}\n\nThe pages of section ${s}${of}.\n`;
    summary.push(`* [Section ${s}](${dir}/README.md)`);
    made++;
    for (let p = 1; p < SECTION && made < pages; p++, made++) {
      const deep = p >= SECTION - 10;
      const file = `${dir}/${deep ? 'deep/' : ''}page-${String(p).padStart(2, '0')}.md`;
      const up = deep ? '../../' : '../';
      files[file] = [
        '---', `description: Page ${p} of section ${s}${of}`, '---', '',
        `# Page ${s}.${p}`, '',
        `Page ${s}.${p} explains how to configure the service. Read the [section](${up}${dir}/README.md) first.`, '',
        '## Steps', '', '1. Install the tool.', `2. Set the option \`level\` to ${p}.`, '3. Deploy.', '',
        '{% hint style="info" %}', `Section ${s} needs no restart.`, '{% endhint %}', '',
        '```bash', `tool deploy --level ${p}`, '```', '',
        `![Figure](${up}.gitbook/assets/${assetName((s * SECTION + p) % assets, kind)})`, '',
      ].join('\n');
      summary.push(`${deep ? '        ' : '    '}* [Page ${s}.${p}](${file})`);
    }
  }
  files['SUMMARY.md'] = `${summary.join('\n')}\n`;
  return files;
}

/** `treePeak`: the worker and the git processes it started (the Lambda's memory holds both). */
/** `cpuMs`: the worker's CPU from the enqueue to the handler's return, every thread; `gitCpuMs`: its git processes'. */
interface ChildResult { ok: boolean; error?: string; handledAt: number; cpuMs: number; gitCpuMs: number; baseline: number; peak: number; treePeak: number; heapPeak: number; heapBaseline: number; retained: number; maxRssKb: number }

/** `arm()`: resolves once the worker has taken its baselines (its full GC done) and polls the queue; `finished` is its job's result. */
interface Worker { arm(): Promise<{ finished: Promise<ChildResult> }>; stop(): Promise<void> }

function startWorker(): Promise<Worker> {
  const child = fork(join(here, 'worker-child.ts'), [], {
    execPath: projectNodeBinary(),
    // No --expose-gc here: the markdown parse worker threads inherit execArgv and refuse it (worker-child.ts gets gc another way).
    // BENCH_CPU_PROF=<dir>: V8 CPU profiles of the worker (and its parse threads), written when it exits.
    // BENCH_TRACE_GC=1: each of its collections, with its pause, on its stdout. Node's options: the git Lambda's own (infra/lambda-node.ts).
    execArgv: ['--disable-warning=ExperimentalWarning', ...(process.env.BENCH_TRACE_GC ? ['--trace-gc'] : []), ...GIT_WORKER_NODE_OPTIONS, ...(process.env.BENCH_CPU_PROF ? ['--cpu-prof', '--cpu-prof-dir', process.env.BENCH_CPU_PROF] : [])],
    cwd: projectRoot,
    // As in the Lambda, pages are parsed on the job's thread (its bundle has no parse worker
    // file: shared/content/markdown/parse-pool.ts), so the RSS is the Lambda's, threads included.
    env: { ...process.env, MARKDOWN_PARSE_WORKERS: '0' },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  children.add(child);
  let pending: ((r: ChildResult) => void) | undefined;
  let armed: (() => void) | undefined;
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => {
      children.delete(child);
      armed?.();
      if (pending) pending({ ok: false, error: `worker exited with ${code}`, handledAt: 0, cpuMs: 0, gitCpuMs: 0, baseline: 0, peak: 0, treePeak: 0, heapPeak: 0, heapBaseline: 0, retained: 0, maxRssKb: 0 });
      reject(new Error(`worker exited with ${code}`));
    });
    child.on('message', (message: { ready?: boolean; armed?: boolean } & ChildResult) => {
      if (message.armed) {
        armed?.();
        armed = undefined;
      } else if (message.ready) {
        resolve({
          arm: () => new Promise((onArmed) => {
            // The worker's RSS, and its git processes', sampled from this process.
            const rss = sampleRss(child.pid!);
            const finished = new Promise<ChildResult>((r) => {
              pending = (result) => r({ ...result, ...rss.stop() });
            });
            armed = () => onArmed({ finished });
            child.send({ cmd: 'run' });
          }),
          // Resolves once the process is gone (with BENCH_CPU_PROF, after it wrote its profile).
          stop: () => new Promise<void>((done) => {
            if (child.exitCode !== null) return done();
            child.once('exit', () => done());
            child.send({ cmd: 'exit' });
          }),
        });
      } else if (pending) {
        const done = pending;
        pending = undefined;
        done(message);
      }
    });
  });
}

interface Shape { name: string; pages: number; assets: number; kind: AssetKind }

interface ShapeResult {
  shape: Shape;
  packBytes: number;
  repoBytes: number;
  /** Per round, the median of its CLONES clones; `everyClone`: each of them. */
  clones: number[];
  everyClone: number[];
  clonesOnly: number[];
  /** The same clone into TMPFS (empty when there is none). */
  tmpfsClones: number[];
  /** Markdown parse of every page and of SUMMARY.md alone, on one thread (the import's floor besides the clone). */
  parses: number[];
  imports: number[];
  warmImports: number[];
  /** The same warm worker's import of another repository of the same shape. */
  otherImports: number[];
  /** CPU of each process during each phase's jobs, by phase. */
  cpu: Record<Phase, JobCpu[]>;
  peak: ChildResult;
}

type Phase = 'cold' | 'warm' | 'warm, another repository';

/** Serves `files` as the repository `name` on the test git server: its URL. */
async function serve(name: string, files: Record<string, string | Uint8Array>): Promise<string> {
  await createRepo(gitServer!, name, files);
  return `${gitServer!.url}/${name}.git`;
}

/**
 * Clones per measurement of the floor, its median taken: one clone of the generated shape
 * took 0.25-0.9 s with the state of this machine's disk, sometimes 0.3 and 0.6 s in the same
 * minute (bench/README.md, "What the Git floor measures"), so a single clone per round made
 * the verdict follow the disk.
 */
const CLONES = intEnv('BENCH_CLONES', 3);

/** The median of CLONES clones of `url` (timeGitClone), one after another; each is kept in `all`. */
async function timeGitClones(url: string, all: number[]): Promise<number> {
  const times: number[] = [];
  for (let n = 0; n < CLONES; n++) times.push(await timeGitClone(url));
  all.push(...times);
  return median(times);
}

/** `git clone --depth 1 --single-branch` (CLI) of a served URL into a temporary folder, removed after: its milliseconds. */
async function timeGitClone(url: string, parent = tmpdir()): Promise<number> {
  const dir = await mkdtemp(join(parent, 'bench-git-clone-'));
  try {
    const t0 = performance.now();
    await git(['clone', '--quiet', '--depth', '1', '--single-branch', '--branch', 'main', url, dir], tmpdir());
    return performance.now() - t0;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * CPU time (ms) each process spent on one job: the worker and its git processes (as it
 * reports them), DynamoDB Local, and this process with the git server's processes (the S3
 * and SQS emulator, the API, `git http-backend`). On a machine of two vCPUs, what the others
 * spend slows the worker's thread (bench/README.md).
 */
interface JobCpu { worker: number; git: number; dynamodb: number; bench: number }

/** Imports `repoUrl` into a new space with `worker`: the job's milliseconds and the worker's figures; checks the pages and files arrived. */
async function timeImport(worker: Worker, repoUrl: string, title: string, expected: { pages: number; assets: number }): Promise<{ ms: number; measured: ChildResult; cpu: JobCpu }> {
  const call = async (method: string, path: string, body?: unknown) => (await stack!.call(method, path, body)).body;
  const space = await call('POST', `/orgs/${stack!.org.id}/spaces`, { title });
  const { finished } = await worker.arm();
  const dynamodbPid = stack!.emulators.dynamodbPid;
  const [dynamodbStart, benchStart] = [cpuMs(dynamodbPid), cpuMs(process.pid, { children: true })];
  // Epoch milliseconds, the clock the worker stamps `handledAt` with.
  const enqueuedAt = performance.timeOrigin + performance.now();
  await call('POST', `/spaces/${space.id}/git/import`, { url: repoUrl, ref: 'refs/heads/main' });
  const measured = await finished;
  const cpu = { worker: measured.cpuMs, git: measured.gitCpuMs, dynamodb: cpuMs(dynamodbPid) - dynamodbStart, bench: cpuMs(process.pid, { children: true }) - benchStart };
  if (!measured.ok) throw new Error(`${title}: ${measured.error}`);
  const ms = measured.handledAt - enqueuedAt;
  const info = await call('GET', `/spaces/${space.id}/git/info`);
  if (info.operations.last?.status !== 'succeeded') throw new Error(`${title}: ${JSON.stringify(info.operations.last)}`);
  const content = await call('GET', `/spaces/${space.id}/content`);
  let count = 0;
  const walk = (pages: { type: string; pages: unknown[] }[]) => pages.forEach((p) => (p.type === 'document' && count++, walk(p.pages as never)));
  walk(content.pages);
  if (count !== expected.pages || content.files.length !== expected.assets) throw new Error(`${title}: ${count} pages, ${content.files.length} files`);
  return { ms, measured, cpu };
}

async function runShape(shape: Shape): Promise<ShapeResult> {
  progress(`${shape.name}: generating a repository of ${shape.pages} pages and ${shape.assets} assets`);
  const files = generate(shape.pages, shape.assets, shape.kind);
  const repoBytes = Object.values(files).reduce((sum, f) => sum + (typeof f === 'string' ? Buffer.byteLength(f) : f.byteLength), 0);
  const url = await serve(shape.name, files);
  // The same shape again, with not one page or asset of the same bytes: a warm worker's import
  // of another repository parses and stores everything, as its first job did.
  const otherUrl = await serve(`${shape.name}-2`, generate(shape.pages, shape.assets, shape.kind, 2));
  const packBytes = Number((await git(['count-objects', '-v'], join(gitServer!.root, `${shape.name}.git`))).match(/size-pack: (\d+)/)?.[1] ?? 0) * 1024;

  // git clone (CLI) of the served URL, shallow and single-branch, as the worker fetches.
  const clones: number[] = [];
  const everyClone: number[] = [];
  const clonesOnly: number[] = [];
  const tmpfsClones: number[] = [];
  const imports: number[] = [];
  const parses: number[] = [];
  const warmImports: number[] = [];
  const otherImports: number[] = [];
  const peaks: ChildResult[] = [];
  const cpu: Record<Phase, JobCpu[]> = { cold: [], warm: [], 'warm, another repository': [] };
  for (let round = 1; round <= ROUNDS; round++) {
    progress(`${shape.name} round ${round}/${ROUNDS}: git clone`);
    clones.push(await timeGitClones(url, everyClone));
    if (TMPFS && existsSync(TMPFS)) tmpfsClones.push(await timeGitClone(url, TMPFS));

    // The worker's clone alone (its "cloning" stage: git CLI through the egress relay, then the tree), for attribution.
    progress(`${shape.name} round ${round}/${ROUNDS}: worker clone`);
    const t1 = performance.now();
    const checkout = await Checkout.open(url, 'refs/heads/main', { requireRef: true });
    await checkout.files(checkout.head);
    clonesOnly.push(performance.now() - t1);
    await checkout.close();

    // What parsing alone costs: every page (as the worker parses it) and the table of contents.
    const t3 = performance.now();
    for (const [path, file] of Object.entries(files)) {
      if (path === 'SUMMARY.md') parseSummary(file as string);
      else if (path.endsWith('.md')) markdownToDocument(file as string);
    }
    parses.push(performance.now() - t3);

    // The import job: enqueue through the API, one git worker process polls and runs it. A
    // fresh worker process per round ("cold": its first job; the process start and module
    // loading happen before the clock starts), then a second import of the same repository
    // into another new space by the same process ("warm": a Lambda instance kept between jobs),
    // then its import of the other repository ("warm, another repository": nothing cached).
    const worker = await startWorker();
    try {
      const phases = [['cold', url, imports], ['warm', url, warmImports], ['warm, another repository', otherUrl, otherImports]] as const;
      for (const [phase, repoUrl, times] of phases) {
        progress(`${shape.name} round ${round}/${ROUNDS}: import (${phase})`);
        const { ms, measured, cpu: used } = await timeImport(worker, repoUrl, `Import ${shape.name} ${round} ${phase}`, shape);
        times.push(ms);
        peaks.push(measured);
        cpu[phase].push(used);
      }
    } finally {
      await worker.stop();
    }
  }
  return { shape, packBytes, repoBytes, clones, everyClone, clonesOnly, tmpfsClones, parses, imports, warmImports, otherImports, cpu, peak: peaks.reduce((a, b) => (b.treePeak > a.treePeak ? b : a)) };
}

interface SlopeRow { pages: number; assets: number; clones: number[]; imports: number[]; treePeak: number }

/**
 * The slope: one warm worker (its first job, on a repository of its own, is not counted)
 * imports a repository it has never seen at each size, smallest first, ROUNDS times over, so
 * every size finds the worker as warm; each beside a git clone of the same repository.
 */
async function runSlope(): Promise<SlopeRow[]> {
  const rows: SlopeRow[] = SIZES.map((pages) => ({ pages, assets: Math.max(1, Math.round(pages / 5)), clones: [], imports: [], treePeak: 0 }));
  // Editions above any the shapes use: not one page or asset the worker has seen.
  let edition = 100;
  const repository = (pages: number, assets: number) => {
    edition++;
    return serve(`slope-${pages}-${edition}`, generate(pages, assets, 'mixed', edition));
  };
  const worker = await startWorker();
  try {
    progress('slope: the worker\'s first job (not counted)');
    await timeImport(worker, await repository(rows[0]!.pages, rows[0]!.assets), 'Slope warm-up', rows[0]!);
    for (let round = 1; round <= ROUNDS; round++) {
      for (const row of rows) {
        progress(`slope round ${round}/${ROUNDS}: ${row.pages} pages`);
        const url = await repository(row.pages, row.assets);
        row.clones.push(await timeGitClones(url, []));
        const { ms, measured } = await timeImport(worker, url, `Slope ${row.pages} ${round}`, row);
        row.imports.push(ms);
        row.treePeak = Math.max(row.treePeak, measured.treePeak);
      }
    }
  } finally {
    await worker.stop();
  }
  return rows;
}

function printSlope(rows: SlopeRow[]): void {
  out();
  out(`-- slope: the generated shape at ${rows.map((r) => r.pages).join(', ')} pages, a warm worker, each repository new to it (${ROUNDS} round(s), medians) --`);
  out(table(['pages', 'assets', 'git clone ms', 'import ms', 'import / git clone', 'import ms per page', 'worker peak RSS (+ git)'], rows.map((r) => {
    const clone = median(r.clones);
    const imp = median(r.imports);
    return [String(r.pages), String(r.assets), clone.toFixed(0), imp.toFixed(0), ratio(imp / clone), (imp / r.pages).toFixed(2), mb(r.treePeak)];
  })));
  if (rows.length > 1) {
    const [first, last] = [rows[0]!, rows.at(-1)!];
    const perPage = (r: SlopeRow) => median(r.imports) / r.pages;
    out(`per page, ${last.pages} / ${first.pages} pages: ${ratio(perPage(last) / perPage(first))} (below 1: the job's fixed costs spread over more pages; above 1: a cost growing faster than the repository)`);
  }
}

/**
 * Jobs the emulators serve before anything is measured: DynamoDB Local is a JVM, whose first
 * writes of each kind cost it 30 ms of CPU and more (interpreted, then compiled on its
 * own threads) against 6 ms once warm, and that CPU is taken from the worker's machine. The
 * AWS services a Lambda calls have no such start. The jobs go through a worker process of
 * their own: every measured worker is still a new process.
 */
const STACK_WARMUP_JOBS = intEnv('BENCH_STACK_WARMUP', 3);

async function warmUpStack(): Promise<void> {
  const shape = { pages: 200, assets: 40 };
  const worker = await startWorker();
  try {
    for (let job = 1; job <= STACK_WARMUP_JOBS; job++) {
      progress(`warming up the emulators: job ${job}/${STACK_WARMUP_JOBS}`);
      const url = await serve(`warm-up-${job}`, generate(shape.pages, shape.assets, 'mixed', 1000 + job));
      await timeImport(worker, url, `Warm-up ${job}`, shape);
    }
  } finally {
    await worker.stop();
  }
}

async function main() {
  progress('starting emulators');
  stack = await startBenchStack('bench-git');
  gitServer = await startGitServer();
  // The served repositories are on 127.0.0.1: the egress guard lets the worker reach this one port.
  process.env.EGRESS_ALLOWLIST = new URL(gitServer.url).host;
  if (process.env.BENCH_STACK_WARMUP !== '0') await warmUpStack();
  const shapes: Shape[] = [
    { name: 'generated', pages: PAGES, assets: ASSETS, kind: 'mixed' as const },
    { name: 'real', pages: REAL_PAGES, assets: REAL_IMAGES, kind: 'large-images' as const },
  ].filter((s) => SHAPES.includes(s.name));
  const results: ShapeResult[] = [];
  for (const shape of shapes) results.push(await runShape(shape));
  const slope = SIZES.length > 0 ? await runSlope() : [];

  out(`== bench:git: ${ROUNDS} round(s) per shape, medians${QUICK ? ' (BENCH_QUICK)' : ''} ==`);
  const verdicts: string[][] = [];
  for (const r of results) {
    const { shape, peak } = r;
    const clone = median(r.clones);
    const iso = median(r.clonesOnly);
    const imp = median(r.imports);
    const warm = median(r.warmImports);
    const other = median(r.otherImports);
    const parse = median(r.parses);
    out();
    out(`-- ${shape.name}: ${shape.pages} pages, ${shape.assets} ${shape.kind === 'mixed' ? 'small assets' : 'large images'} (files ${mb(r.repoBytes)}, pack ${(r.packBytes / 1024 / 1024).toFixed(1)} MB) --`);
    out(table(['measure', 'ms', 'per round'], [
      [`git clone --depth 1 --single-branch (CLI; per round the median of ${CLONES}, each ${Math.min(...r.everyClone).toFixed(0)}-${Math.max(...r.everyClone).toFixed(0)})`, clone.toFixed(0), r.clones.map((x) => x.toFixed(0)).join(' / ')],
      ...(r.tmpfsClones.length > 0 ? [[`the same clone into tmpfs (${TMPFS}): no disk (diagnostic)`, median(r.tmpfsClones).toFixed(0), r.tmpfsClones.map((x) => x.toFixed(0)).join(' / ')]] : []),
      ['worker clone: git CLI via the egress relay + tree (stage "cloning")', iso.toFixed(0), r.clonesOnly.map((x) => x.toFixed(0)).join(' / ')],
      ['markdown parse of the pages and SUMMARY.md alone (one thread)', parse.toFixed(0), r.parses.map((x) => x.toFixed(0)).join(' / ')],
      ['import job, cold: enqueue -> revision primary (1st job of a worker)', imp.toFixed(0), r.imports.map((x) => x.toFixed(0)).join(' / ')],
      ['import job, warm: the same worker\'s 2nd job', warm.toFixed(0), r.warmImports.map((x) => x.toFixed(0)).join(' / ')],
      ['import job, warm, another repository: its 3rd job, nothing cached', other.toFixed(0), r.otherImports.map((x) => x.toFixed(0)).join(' / ')],
    ]));
    out(`import / git clone: cold ${ratio(imp / clone)}, warm ${ratio(warm / clone)}, warm with another repository ${ratio(other / clone)}; worker clone / git clone: ${ratio(iso / clone)}; markdown parse alone / git clone: ${ratio(parse / clone)}`);
    if (r.tmpfsClones.length > 0) {
      const mem = median(r.tmpfsClones);
      out(`against the tmpfs clone (not gated): cold ${ratio(imp / mem)}, warm ${ratio(warm / mem)}, warm with another repository ${ratio(other / mem)}`);
    }
    out(`pages/s: ${(shape.pages / (imp / 1000)).toFixed(0)} (${shape.pages} pages + ${shape.assets} files, ${IMPORT_CONCURRENCY} at a time); MB/s: ${(r.repoBytes / 1024 / 1024 / (imp / 1000)).toFixed(1)}`);
    out(`worker peak RSS: ${mb(peak.peak)} (idle ${mb(peak.baseline)}, +${mb(peak.peak - peak.baseline)}; maxRSS ${mb(peak.maxRssKb * 1024)}); with its git processes: ${mb(peak.treePeak)}`);
    out(`worker heap: idle ${mb(peak.heapBaseline)}, peak ${mb(peak.heapPeak)}, after the job and a full GC ${mb(peak.retained)}`);
    out('CPU during the jobs (ms, medians; not gated: where the machine\'s two vCPUs went):');
    out(table(['job', 'wall', 'worker', 'its git', 'DynamoDB Local', 'bench process + git server'], (Object.entries(r.cpu) as [Phase, JobCpu[]][]).map(([phase, jobs]) => {
      const wall = median(phase === 'cold' ? r.imports : phase === 'warm' ? r.warmImports : r.otherImports);
      const of = (key: keyof JobCpu) => median(jobs.map((j) => j[key])).toFixed(0);
      return [phase, wall.toFixed(0), of('worker'), of('git'), of('dynamodb'), of('bench')];
    })));
    const peakRss = Math.max(peak.peak, peak.maxRssKb * 1024, peak.treePeak);
    verdicts.push([`${shape.name}: import / git clone, cold`, `${ratio(imp / clone)} (${imp.toFixed(0)} / ${clone.toFixed(0)} ms)`, `<= ${targets.ratio}x`, imp / clone <= targets.ratio ? 'PASS' : 'MISS']);
    verdicts.push([`${shape.name}: import / git clone, warm`, `${ratio(warm / clone)} (${warm.toFixed(0)} / ${clone.toFixed(0)} ms)`, `<= ${targets.ratio}x`, warm / clone <= targets.ratio ? 'PASS' : 'MISS']);
    verdicts.push([`${shape.name}: import / git clone, warm, another repository`, `${ratio(other / clone)} (${other.toFixed(0)} / ${clone.toFixed(0)} ms)`, `<= ${targets.ratio}x`, other / clone <= targets.ratio ? 'PASS' : 'MISS']);
    verdicts.push([`${shape.name}: git worker peak RSS (+ git processes)`, mb(peakRss), `< ${mb(targets.rssBytes)}`, peakRss < targets.rssBytes ? 'PASS' : 'MISS']);
  }
  if (slope.length > 0) printSlope(slope);
  out();
  out('== SUMMARY ==');
  out(table(['measure', 'value', 'target', 'result'], verdicts));
}

try {
  await main();
} finally {
  await cleanup();
  clearTimeout(watchdog);
}
