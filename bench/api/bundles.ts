import { build } from 'esbuild';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { median } from './stats.ts';
import { LAMBDA_ESBUILD_TARGET } from '../../infra/lambda-node.ts';

/** The banner of infra/constructs/service-function.ts (ESM bundles still meet `require`). */
const requireBanner = "import { createRequire } from 'module'; const require = createRequire(import.meta.url);";

export interface BundleResult {
  name: string;
  bytes: number;
  /** @aws-sdk client packages in the bundle (dynamodb, s3, sqs, lib-dynamodb, ...). */
  sdkClients: string[];
  /** Median import() time of the bundle in a fresh node process, ms. */
  importMs: number;
  importSamples: number[];
}

/**
 * Bundles an entry the way the CDK's NodejsFunction does for ServiceFunction:
 * esbuild --bundle --target=<LAMBDA_ESBUILD_TARGET> --platform=node --format=esm --outfile=index.mjs
 * --minify --sourcemap --sources-content=false --main-fields=module,main --banner:js=...
 * (no externals: the AWS SDK is bundled). Returns the path of index.mjs.
 */
export async function bundleLikeCdk(projectRoot: string, entry: string, outDir: string): Promise<{ file: string; sdkClients: string[] }> {
  mkdirSync(outDir, { recursive: true });
  const outfile = join(outDir, 'index.mjs');
  const result = await build({
    absWorkingDir: projectRoot,
    entryPoints: [join(projectRoot, entry)],
    bundle: true,
    target: LAMBDA_ESBUILD_TARGET,
    platform: 'node',
    format: 'esm',
    outfile,
    minify: true,
    sourcemap: true,
    sourcesContent: false,
    external: [],
    banner: { js: requireBanner },
    mainFields: ['module', 'main'],
    logLevel: 'silent',
    metafile: true, // not a CDK setting; only read here to list the bundled SDK clients
  });
  const sdkClients = new Set<string>();
  for (const input of Object.keys(result.metafile.inputs)) {
    const match = /node_modules\/@aws-sdk\/(client-[a-z0-9-]+|lib-dynamodb)\//.exec(input);
    if (match) sdkClients.add(match[1]!.replace('client-', ''));
  }
  return { file: outfile, sdkClients: [...sdkClients].sort() };
}

/** Child script: times import() of the bundle named by BENCH_IMPORT_URL, inside the child. */
const probe = [
  'const t0 = performance.now();',
  'const mod = await import(process.env.BENCH_IMPORT_URL);',
  'const t1 = performance.now();',
  "if (typeof mod.handler !== 'function') throw new Error('bundle exports no handler');",
  'process.stdout.write(JSON.stringify({ importMs: t1 - t0 }));',
].join('\n');

/** One fresh `node` process importing the bundle; resolves the import time it measured. */
export function timeColdImport(nodeBinary: string, file: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const env: NodeJS.ProcessEnv = { ...process.env, BENCH_IMPORT_URL: pathToFileURL(file).href, AWS_REGION: 'us-east-1' };
    delete env.NODE_OPTIONS;
    const child = spawn(nodeBinary, ['--input-type=module', '-e', probe], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      if (code !== 0) return reject(new Error(`import of ${file} failed (exit ${code}): ${err.trim().slice(0, 500)}`));
      try {
        resolve((JSON.parse(out) as { importMs: number }).importMs);
      } catch {
        reject(new Error(`import probe printed no result: ${out.slice(0, 200)} ${err.slice(0, 200)}`));
      }
    });
  });
}

/**
 * Bundles every entry, then times `rounds` cold imports of each, round-robin so that
 * machine noise spreads evenly over all bundles.
 */
export async function benchBundles(options: {
  projectRoot: string;
  nodeBinary: string;
  outRoot: string;
  entries: { name: string; entry: string }[];
  rounds: number;
}): Promise<BundleResult[]> {
  const files: { name: string; file: string; bytes: number; sdkClients: string[] }[] = [];
  for (const { name, entry } of options.entries) {
    if (!existsSync(join(options.projectRoot, entry))) throw new Error(`missing entry ${entry}`);
    const { file, sdkClients } = await bundleLikeCdk(options.projectRoot, entry, join(options.outRoot, name.replace(/[^A-Za-z0-9-]/g, '_')));
    files.push({ name, file, bytes: statSync(file).size, sdkClients });
  }
  // One untimed import each first: warms the OS file cache so every timed round reads from memory.
  for (const f of files) await timeColdImport(options.nodeBinary, f.file);
  const samples = new Map<string, number[]>(files.map((f) => [f.name, []]));
  for (let round = 0; round < options.rounds; round++) {
    for (const f of files) samples.get(f.name)!.push(await timeColdImport(options.nodeBinary, f.file));
  }
  return files.map((f) => ({
    name: f.name,
    bytes: f.bytes,
    sdkClients: f.sdkClients,
    importSamples: samples.get(f.name)!,
    importMs: median(samples.get(f.name)!),
  }));
}
