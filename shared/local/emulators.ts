import { startFauxqs, type FauxqsServer } from 'fauxqs';
import { createServer, Server } from 'node:net';
import { spawnDynamoDbLocal } from './dynamodb-local.ts';
import type { ChildProcess } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';

export interface Emulators {
  dynamodbEndpoint: string;
  awsEndpoint: string;
  /** DynamoDB Local's Java process (bench:git reads its CPU time). */
  dynamodbPid: number | undefined;
  stop(): Promise<void>;
}

/** A free TCP port on 127.0.0.1. */
export async function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolvePort(port));
    });
  });
}

/**
 * fauxqs 2.4.1 listens on 0.0.0.0 whatever its `host` option says (dist/app.js), which would
 * put every stored blob and queue on the network: while `start` runs, a listen on 0.0.0.0 is
 * made on 127.0.0.1 instead (the emulators start before anything else listens).
 */
async function onLoopback<T>(start: () => Promise<T>): Promise<T> {
  const listen = Server.prototype.listen;
  Server.prototype.listen = function (this: Server, ...args: unknown[]) {
    const [options] = args;
    if (options && typeof options === 'object' && (options as { host?: string }).host === '0.0.0.0') args[0] = { ...options, host: '127.0.0.1' };
    return (listen as (...a: unknown[]) => Server).apply(this, args);
  } as typeof listen;
  try {
    return await start();
  } finally {
    Server.prototype.listen = listen;
  }
}

/** What a machine without Java sees, in one line instead of `spawn java ENOENT`. */
export const JAVA_MISSING = 'DynamoDB Local needs Java 17 or newer and no `java` was found on the PATH: install a JRE (e.g. `apt install openjdk-17-jre-headless`), or point AWS_ENDPOINT_URL_DYNAMODB at a DynamoDB you run yourself';

/**
 * Watches a just-spawned child: without an 'error' listener from the start, a failed spawn
 * (no java) is an uncaught exception that kills the process with a raw `spawn java ENOENT`.
 */
function watchSpawn(child: ChildProcess): { error?: NodeJS.ErrnoException } {
  const state: { error?: NodeJS.ErrnoException } = {};
  child.once('error', (error) => (state.error = error));
  return state;
}

async function waitForHttp(url: string, child: ChildProcess, spawn: { error?: NodeJS.ErrnoException }, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let exited = false;
  child.once('exit', () => (exited = true));
  while (Date.now() < deadline) {
    const spawnError = spawn.error;
    if (spawnError) throw new Error(spawnError.code === 'ENOENT' ? JAVA_MISSING : `DynamoDB Local could not start: ${spawnError.message}`);
    if (exited) throw new Error('DynamoDB Local exited during start-up (is Java 17 installed?)');
    try {
      await fetch(url);
      return;
    } catch {
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  throw new Error(`DynamoDB Local did not answer on ${url} within ${timeoutMs} ms`);
}

/**
 * Starts DynamoDB Local (the real jar on the machine's Java) and fauxqs (SQS + S3) for
 * a local run or a test run. In memory unless `dataDir` is given.
 */
export async function startEmulators(options: { dataDir?: string } = {}): Promise<Emulators> {
  const dynamoPort = await freePort();
  let dbPath: string | null = null;
  if (options.dataDir) {
    dbPath = resolve(join(options.dataDir, 'dynamodb'));
    mkdirSync(dbPath, { recursive: true });
  }
  const dynamo = spawnDynamoDbLocal({ port: dynamoPort, dbPath });
  const spawned = watchSpawn(dynamo);
  // The Java process outlives its parent unless killed: whatever way this process ends
  // (a failed start, an uncaught error, process.exit), it goes too.
  const killOnExit = () => dynamo.kill();
  process.once('exit', killOnExit);
  const dynamodbEndpoint = `http://127.0.0.1:${dynamoPort}`;
  let fauxqs: FauxqsServer | undefined;
  try {
    const fauxqsDir = options.dataDir ? resolve(join(options.dataDir, 'fauxqs')) : undefined;
    if (fauxqsDir) mkdirSync(fauxqsDir, { recursive: true });
    [fauxqs] = await Promise.all([
      onLoopback(async () => startFauxqs({ port: await freePort(), host: '127.0.0.1', logger: false, ...(fauxqsDir ? { dataDir: fauxqsDir } : {}) })),
      waitForHttp(dynamodbEndpoint, dynamo, spawned),
    ]);
  } catch (error) {
    dynamo.kill();
    throw error;
  }
  const awsEndpoint = `http://127.0.0.1:${fauxqs.port}`;
  return {
    dynamodbEndpoint,
    awsEndpoint,
    dynamodbPid: dynamo.pid,
    async stop() {
      process.off('exit', killOnExit);
      await fauxqs?.stop();
      await new Promise<void>((r) => {
        if (dynamo.exitCode !== null) return r();
        dynamo.once('exit', () => r());
        dynamo.kill();
      });
    },
  };
}

/** Points the AWS SDK at the emulators (standard endpoint variables, dummy credentials). */
export function useEmulatorEndpoints(emulators: Pick<Emulators, 'dynamodbEndpoint' | 'awsEndpoint'>): void {
  process.env.AWS_ENDPOINT_URL_DYNAMODB = emulators.dynamodbEndpoint;
  process.env.AWS_ENDPOINT_URL_SQS = emulators.awsEndpoint;
  process.env.AWS_ENDPOINT_URL_S3 = emulators.awsEndpoint;
  process.env.AWS_REGION ??= 'us-east-1';
  process.env.AWS_ACCESS_KEY_ID ??= 'local';
  process.env.AWS_SECRET_ACCESS_KEY ??= 'local';
}
