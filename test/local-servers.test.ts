import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile, execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from '../shared/local/emulators.ts';
import { chooseLocalStack, type LocalStackInfo } from '../shared/local/local-stack-file.ts';

/**
 * Several `npm start` at once and the admin CLI: real servers (shared/local/start.ts, each with
 * its own DynamoDB Local and fauxqs) and real CLI processes on 127.0.0.1, their records in a
 * temporary LOCAL_STACK_DIR instead of the checkout's .data/.
 */
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const node = path.join(root, 'node_modules/.bin/node');
const nodeArgs = ['--disable-warning=ExperimentalWarning'];
const work = mkdtempSync(path.join(os.tmpdir(), 'local-servers-'));
const stackDir = path.join(work, 'stacks');

/** This process's environment without anything that names a target, a port or a data folder. */
function cleanEnv(env: Record<string, string>): Record<string, string> {
  const clean: Record<string, string> = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (value === undefined || /^(AWS_|QUEUE_URL_)/.test(name)) continue;
    if (['TABLE_NAME', 'BUCKET_NAME', 'DATA_DIR', 'PORT', 'HOST', 'LOCAL_SERVER', 'LOCAL_EMULATORS', 'AUTH_CACHE_SECONDS', 'BOOTSTRAP_TOKEN', 'SERVICE_SECRET', 'PUBLIC_API_URL', 'PROVISION', 'NODE_OPTIONS'].includes(name)) continue;
    if (name.startsWith('VITEST') || name === 'TEST') continue;
    clean[name] = value;
  }
  return { ...clean, LOCAL_STACK_DIR: stackDir, POWERTOOLS_LOG_LEVEL: 'ERROR', ...env };
}

interface Server {
  child: ChildProcess;
  pid: number;
  port: number;
  token: string;
  stdout: string;
  stderr: string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}
const servers: Server[] = [];

/** `npm start` as its own process group (SIGKILL of the group takes its DynamoDB Local along); resolves once it prints its token, rejects if it exits first. */
async function startServer(env: Record<string, string> = {}): Promise<Server> {
  const port = Number(env.PORT ?? await freePort());
  const child = spawn(node, [...nodeArgs, 'shared/local/start.ts'], { cwd: root, env: cleanEnv({ PORT: String(port), ...env }), detached: true });
  const server = { child, pid: child.pid!, port, token: '', stdout: '', stderr: '' } as Server;
  servers.push(server);
  server.exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  child.stdout!.on('data', (chunk) => (server.stdout += chunk));
  child.stderr!.on('data', (chunk) => (server.stderr += chunk));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`npm start did not start within 120 s: ${server.stdout}${server.stderr}`)), 120_000);
    child.stdout!.on('data', () => {
      const match = /Bearer token: (\S+)/.exec(server.stdout);
      if (!match) return;
      clearTimeout(timer);
      server.token = match[1]!;
      resolve(server);
    });
    void server.exited.then(({ code }) => {
      clearTimeout(timer);
      reject(Object.assign(new Error(`npm start exited (${code}): ${server.stderr}`), { code, stderr: server.stderr }));
    });
  });
}

/** A start that must fail: its exit code and what it printed. */
async function failedStart(env: Record<string, string>): Promise<{ code: number | null; stderr: string }> {
  try {
    await startServer(env);
  } catch (error) {
    return error as { code: number | null; stderr: string };
  }
  throw new Error('npm start started');
}

async function stop(server: Server, signal: NodeJS.Signals) {
  server.child.kill(signal);
  return server.exited;
}

interface CliResult { code: number; stdout: string; stderr: string }
/** `npm run admin -- <args>`; never rejects (the exit code is the result). */
function admin(args: string[], env: Record<string, string> = {}): Promise<CliResult> {
  return new Promise((resolve) => {
    execFile(node, [...nodeArgs, 'shared/local/admin-cli.ts', ...args], { cwd: root, env: cleanEnv(env), timeout: 60_000 }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr });
    });
  });
}

/** Whether every process of a server's group (itself, its DynamoDB Local) has ended within 10 s. */
async function groupGone(pid: number): Promise<boolean> {
  for (const deadline = Date.now() + 10_000; Date.now() < deadline; await new Promise((r) => setTimeout(r, 100))) {
    try {
      process.kill(-pid, 0);
    } catch {
      return true;
    }
  }
  return false;
}

function records(): LocalStackInfo[] {
  if (!existsSync(stackDir)) return [];
  return readdirSync(stackDir).filter((name) => name.endsWith('.json')).map((name) => JSON.parse(readFileSync(path.join(stackDir, name), 'utf8')) as LocalStackInfo);
}

async function status(server: Server, token: string): Promise<number> {
  const res = await fetch(`http://127.0.0.1:${server.port}/v1/orgs`, { headers: { authorization: `Bearer ${token}` } });
  await res.arrayBuffer();
  return res.status;
}

afterAll(async () => {
  for (const server of servers) {
    if (server.child.exitCode === null && server.child.signalCode === null) {
      try {
        process.kill(-server.pid, 'SIGKILL');
      } catch {
        // Gone.
      }
    }
  }
  rmSync(work, { recursive: true, force: true });
});

describe('two in-memory `npm start` at once', () => {
  let a: Server;
  let b: Server;
  beforeAll(async () => {
    [a, b] = await Promise.all([startServer({ AUTH_CACHE_SECONDS: '10' }), startServer()]);
  }, 180_000);

  it('each leaves its own record; the CLI refuses to guess between them and reaches the one --server or LOCAL_SERVER names', async () => {
    expect(records().map((r) => [r.pid, r.port, r.dataDir]).sort()).toEqual([[a.pid, a.port, null], [b.pid, b.port, null]].sort());
    expect(records().find((r) => r.pid === a.pid)).toMatchObject({ url: `http://127.0.0.1:${a.port}`, authCacheSeconds: 10 });

    const ambiguous = await admin(['user', 'create', '--email', 'ada@example.com', '--name', 'Ada', '--id', 'ada']);
    expect(ambiguous.code).toBe(2);
    expect(ambiguous.stderr).toContain('2 `npm start` servers are running');
    expect(ambiguous.stderr).toContain(`http://127.0.0.1:${a.port} (pid ${a.pid}, in memory`);
    expect(ambiguous.stderr).toContain(`http://127.0.0.1:${b.port} (pid ${b.pid}, in memory`);
    expect(ambiguous.stderr).toContain('--server <port>');

    const created = await admin(['user', 'create', '--email', 'ada@example.com', '--name', 'Ada', '--id', 'ada', '--server', String(a.port)]);
    expect(created.stderr).toBe('');
    expect(created.code).toBe(0);
    // Written to A's table only: B is another database.
    const onB = await admin(['token', 'create', '--user', 'ada'], { LOCAL_SERVER: String(b.port) });
    expect(onB.stderr).toContain('No user ada');
    const onA = await admin(['token', 'create', '--user', 'ada', '--server', `http://127.0.0.1:${a.port}/v1`]);
    expect(onA.code).toBe(0);
    expect(await status(a, onA.stdout.trim())).toBe(200);
    expect(await status(b, onA.stdout.trim())).toBe(401);

    const nowhere = await admin(['token', 'create', '--user', 'ada', '--server', String(await freePort())]);
    expect(nowhere.code).toBe(2);
    expect(nowhere.stderr).toMatch(/No running `npm start` listens on \d+\. Running:/);
  }, 120_000);

  it('a server stopped with SIGTERM removes only its own record: the CLI then reaches the other without being told', async () => {
    expect(await stop(b, 'SIGTERM')).toEqual({ code: 0, signal: null });
    expect(await groupGone(b.pid)).toBe(true);
    expect(records().map((r) => r.pid)).toEqual([a.pid]);
    const token = await admin(['token', 'create', '--user', 'ada']);
    expect(token.stderr).toBe('');
    expect(await status(a, token.stdout.trim())).toBe(200);
  }, 120_000);

  it('token revoke says when the running server stops accepting the token (its AUTH_CACHE_SECONDS), and it does by then', async () => {
    const token = (await admin(['token', 'create', '--user', 'ada'])).stdout.trim();
    expect(await status(a, token)).toBe(200); // now in A's authentication cache
    const revoked = await admin(['token', 'revoke', '--token', token]);
    const done = Date.now();
    expect(revoked.stdout.trim()).toBe('revoked; a running server stops accepting it within 10 s (AUTH_CACHE_SECONDS, its authentication cache)');
    let refusedAt: number | undefined;
    while (Date.now() < done + 15_000) {
      if (await status(a, token) === 401) {
        refusedAt = Date.now();
        break;
      }
      await new Promise((r) => setTimeout(r, 200));
    }
    expect(refusedAt).toBeDefined();
    expect(refusedAt! - done).toBeLessThanOrEqual(10_000 + 1_000);

    // Not through a recorded server: the window of this environment's AUTH_CACHE_SECONDS.
    const [record] = records();
    const direct = { AWS_ENDPOINT_URL_DYNAMODB: record!.dynamodbEndpoint, TABLE_NAME: record!.tableName, AWS_REGION: 'us-east-1', AWS_ACCESS_KEY_ID: 'local', AWS_SECRET_ACCESS_KEY: 'local' };
    expect((await admin(['token', 'revoke', '--token', token], { ...direct, AUTH_CACHE_SECONDS: '3' })).stdout.trim()).toBe('revoked; a running server stops accepting it within 3 s (AUTH_CACHE_SECONDS, its authentication cache)');
    expect((await admin(['token', 'revoke', '--token', token], direct)).stdout.trim()).toBe('revoked; a running server stops accepting it within 5 s (AUTH_CACHE_SECONDS, its authentication cache)');
    expect((await admin(['token', 'revoke', '--token', token], { ...direct, AUTH_CACHE_SECONDS: '0' })).stdout.trim()).toBe('revoked; a running server refuses it from its next request (AUTH_CACHE_SECONDS=0)');
    const misplaced = await admin(['token', 'revoke', '--token', token, '--server', String(a.port)], direct);
    expect(misplaced.code).toBe(2);
    expect(misplaced.stderr).toContain('--server picks a running `npm start`');
  }, 120_000);

  it('a server stopped with SIGINT (Ctrl-C) removes its record; with none left the CLI says so', async () => {
    expect(await stop(a, 'SIGINT')).toEqual({ code: 0, signal: null });
    expect(records()).toEqual([]);
    const none = await admin(['user', 'create', '--email', 'x@example.com', '--name', 'X']);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('No endpoint configured and no running `npm start` found');
  }, 60_000);
});

describe('DATA_DIR: one server per data folder', () => {
  const dataDir = path.join(work, 'data');
  let c: Server;
  beforeAll(async () => {
    c = await startServer({ DATA_DIR: dataDir });
  }, 180_000);

  it('a second start on the same DATA_DIR is refused with the reason, and the first keeps running and recorded', async () => {
    const second = await failedStart({ DATA_DIR: dataDir });
    expect(second.code).toBe(1);
    expect(second.stderr).toContain(`npm start failed: DATA_DIR ${dataDir} is in use by another \`npm start\` (pid ${c.pid}); two servers cannot share one data folder.`);
    expect(readFileSync(path.join(dataDir, 'server.pid'), 'utf8').trim()).toBe(String(c.pid));
    expect(records().map((r) => [r.pid, r.dataDir])).toEqual([[c.pid, dataDir]]);
    expect(await status(c, c.token)).toBe(200);
    const cli = await admin(['user', 'create', '--email', 'ada@example.com', '--name', 'Ada', '--id', 'ada']);
    expect(cli.code).toBe(0);
  }, 120_000);

  it('a start that fails after taking its DATA_DIR (port in use) leaves neither lock nor record', async () => {
    const other = path.join(work, 'other-data');
    const failed = await failedStart({ DATA_DIR: other, PORT: String(c.port) });
    expect(failed.code).toBe(1);
    expect(failed.stderr).toContain(`port ${c.port} on 127.0.0.1 is already in use`);
    expect(existsSync(path.join(other, 'server.pid'))).toBe(false);
    // The port is taken before anything else: no emulator was started, nothing written in the folder.
    expect(existsSync(path.join(other, 'dynamodb'))).toBe(false);
    expect(existsSync(path.join(other, 'fauxqs'))).toBe(false);
    expect(records().map((r) => r.pid)).toEqual([c.pid]);
  }, 120_000);

  it('a server killed outright leaves a record and a lock of a dead process: the CLI ignores (and deletes) the record, the next start takes the lock over', async () => {
    process.kill(-c.pid, 'SIGKILL'); // the server and its DynamoDB Local
    await c.exited;
    expect(records().map((r) => r.pid)).toEqual([c.pid]);
    expect(existsSync(path.join(dataDir, 'server.pid'))).toBe(true);

    const none = await admin(['token', 'create', '--user', 'ada']);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('no running `npm start` found');
    expect(records()).toEqual([]);

    const again = await startServer({ DATA_DIR: dataDir });
    expect(readFileSync(path.join(dataDir, 'server.pid'), 'utf8').trim()).toBe(String(again.pid));
    const token = await admin(['token', 'create', '--user', 'ada']); // the user of the first server, from the folder
    expect(token.stderr).toBe('');
    expect(await status(again, token.stdout.trim())).toBe(200);
    expect(await stop(again, 'SIGTERM')).toEqual({ code: 0, signal: null });
    expect(existsSync(path.join(dataDir, 'server.pid'))).toBe(false);
    expect(records()).toEqual([]);
  }, 180_000);

  it('SIGTERM during start-up, once DynamoDB Local is spawned (after the DATA_DIR lock and the port): requests get 503, and the server exits 143 and takes DynamoDB Local and its lock along', async () => {
    const early = path.join(work, 'early-data');
    const starting = startServer({ DATA_DIR: early, PORT: String(await freePort()) }).catch(() => {});
    const server = servers.at(-1)!; // spawned synchronously (PORT given)
    // As soon as its group holds a java process (DynamoDB Local, which takes a second or more to answer).
    while (!execFileSync('ps', ['-o', 'comm=', '-g', String(server.pid)], { encoding: 'utf8' }).split('\n').includes('java')) {
      await new Promise((r) => setTimeout(r, 20));
    }
    expect(server.stdout).toBe(''); // still starting
    // Its port is already taken, and answers that the service is starting (a JSON error, when to retry).
    const early503 = await fetch(`http://127.0.0.1:${server.port}/v1/orgs`);
    expect(early503.status).toBe(503);
    expect(early503.headers.get('retry-after')).toBe('1');
    expect(await early503.json()).toEqual({ error: { code: 503, message: 'The service is starting; retry in a moment' } });
    expect(await stop(server, 'SIGTERM')).toEqual({ code: 143, signal: null });
    await starting;
    expect(await groupGone(server.pid)).toBe(true);
    expect(existsSync(path.join(early, 'server.pid'))).toBe(false);
    expect(records().map((r) => r.pid)).not.toContain(server.pid);
  }, 60_000);
});

describe('chooseLocalStack', () => {
  const stack = (pid: number, url: string): LocalStackInfo => ({
    pid, url, port: Number(new URL(url).port), dataDir: null, dynamodbEndpoint: 'x', awsEndpoint: 'x', tableName: 't', authCacheSeconds: 5, startedAt: `2025-01-01T00:00:0${pid}Z`,
  });
  const one = stack(1, 'http://127.0.0.1:8080');
  const two = stack(2, 'http://127.0.0.1:8081');
  it('the only server, or the one named by port, host:port or URL (localhost and 127.0.0.1 alike)', () => {
    expect(chooseLocalStack([one], undefined)).toEqual({ info: one });
    for (const name of ['8081', '127.0.0.1:8081', 'localhost:8081', 'http://127.0.0.1:8081/v1', 'http://localhost:8081']) {
      expect(chooseLocalStack([one, two], name), name).toEqual({ info: two });
    }
  });
  it('several and none named, or a name that matches none, is an error listing them', () => {
    expect(chooseLocalStack([one, two], undefined)).toEqual({ error: expect.stringContaining('choose one with --server') });
    expect(chooseLocalStack([one, two], '9000')).toEqual({ error: expect.stringContaining('No running `npm start` listens on 9000') });
    expect(chooseLocalStack([one, two], 'not a url:x')).toEqual({ error: expect.stringContaining('is not a port or a URL') });
    expect(chooseLocalStack([], undefined)).toEqual({ error: expect.stringContaining('no running `npm start` found') });
  });
});
