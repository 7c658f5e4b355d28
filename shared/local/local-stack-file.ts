import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

/**
 * Where each running `npm start` leaves the endpoints of its embedded emulators, so the admin
 * CLI in another terminal talks to the same in-memory stack without configuration: one file
 * per server, `<pid>.json` in `.data/local-stacks/` (LOCAL_STACK_DIR), written once the server
 * listens and removed by that server alone when it stops. A server killed outright (SIGKILL, a
 * power cut) leaves its file behind: readers skip, and delete, the files of dead processes.
 */
export function localStackDir(): string {
  return resolve(process.env.LOCAL_STACK_DIR ?? '.data/local-stacks');
}

export interface LocalStackInfo {
  pid: number;
  /** The server's base URL as it listens (`http://127.0.0.1:8080`), without /v1. */
  url: string;
  port: number;
  /** The resolved DATA_DIR, or null in memory. */
  dataDir: string | null;
  dynamodbEndpoint: string;
  awsEndpoint: string;
  tableName: string;
  /** The server's AUTH_CACHE_SECONDS (config.authCacheMs / 1000): its revocation window. */
  authCacheSeconds: number;
  startedAt: string;
}

function recordFile(pid: number): string {
  return join(localStackDir(), `${pid}.json`);
}

/** Whether a process with this id runs (EPERM: it does, as another user). */
export function isRunning(pid: number): boolean {
  if (!Number.isSafeInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Records this process's server; written whole (temporary file, then rename) so no reader sees half of it. */
export function writeLocalStackInfo(info: LocalStackInfo): void {
  mkdirSync(localStackDir(), { recursive: true });
  const file = recordFile(info.pid);
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, JSON.stringify(info, null, 2));
  renameSync(temporary, file);
}

/** Removes this process's record (never another server's). */
export function removeLocalStackInfo(pid: number = process.pid): void {
  rmSync(recordFile(pid), { force: true });
}

/** The records of the servers that still run, oldest first; the files of dead ones are deleted. */
export function readLocalStacks(): LocalStackInfo[] {
  let names: string[];
  try {
    names = readdirSync(localStackDir());
  } catch {
    return [];
  }
  const live: LocalStackInfo[] = [];
  for (const name of names) {
    const match = /^(\d+)\.json$/.exec(name);
    if (!match) continue;
    const pid = Number(match[1]);
    if (!isRunning(pid)) {
      removeLocalStackInfo(pid);
      continue;
    }
    try {
      const info = JSON.parse(readFileSync(join(localStackDir(), name), 'utf8')) as LocalStackInfo;
      if (info.pid === pid && typeof info.dynamodbEndpoint === 'string') live.push(info);
    } catch {
      // Removed between the listing and the read: that server just stopped.
    }
  }
  return live.sort((a, b) => a.startedAt.localeCompare(b.startedAt) || a.pid - b.pid);
}

/** One line naming a server, as the admin CLI lists them. */
export function describeLocalStack(info: LocalStackInfo): string {
  return `${info.url} (pid ${info.pid}, ${info.dataDir ? `data in ${info.dataDir}` : 'in memory'}, started ${info.startedAt})`;
}

/**
 * The server the admin CLI should use: the only one running, or the one `server` names (a
 * port, `host:port` or the URL `npm start` prints). Several running and none named is an
 * error listing them: each is a separate database, and a guess would write to the wrong one.
 */
export function chooseLocalStack(stacks: LocalStackInfo[], server: string | undefined): { info: LocalStackInfo } | { error: string } {
  const list = stacks.map((s) => `  ${describeLocalStack(s)}`).join('\n');
  if (server !== undefined && server !== '') {
    const wanted = parseServer(server);
    if (!wanted) return { error: `--server ${server} is not a port or a URL (e.g. 8081 or http://127.0.0.1:8081)` };
    const matches = stacks.filter((s) => s.port === wanted.port && (wanted.host === undefined || sameHost(new URL(s.url).hostname, wanted.host)));
    if (matches.length === 1) return { info: matches[0]! };
    if (matches.length === 0) {
      return { error: stacks.length === 0
        ? `No running \`npm start\` found (--server ${server}).`
        : `No running \`npm start\` listens on ${server}. Running:\n${list}` };
    }
    return { error: `Several running \`npm start\` match ${server}: name the host too (--server http://<host>:${wanted.port}). Running:\n${list}` };
  }
  if (stacks.length === 1) return { info: stacks[0]! };
  if (stacks.length === 0) return { error: 'No endpoint configured and no running `npm start` found (set AWS_ENDPOINT_URL_DYNAMODB, or LOCAL_EMULATORS=off for AWS).' };
  return { error: `${stacks.length} \`npm start\` servers are running, each with its own data; choose one with --server <port> (or LOCAL_SERVER=<port>):\n${list}` };
}

function parseServer(value: string): { port: number; host?: string } | undefined {
  if (/^\d+$/.test(value)) return { port: Number(value) };
  try {
    const url = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(value) ? value : `http://${value}`);
    const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
    return { port, host: url.hostname };
  } catch {
    return undefined;
  }
}

const loopbackNames = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);
function sameHost(a: string, b: string): boolean {
  return a === b || (loopbackNames.has(a) && loopbackNames.has(b));
}
