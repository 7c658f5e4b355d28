/**
 * A Git smart-HTTP server for tests: a Node http server in front of `git http-backend`
 * (CGI), serving the bare repositories under a temporary root on 127.0.0.1. Fixture
 * repositories are made with the git CLI, always spawned asynchronously (a synchronous git
 * call against this server, in the same process, would deadlock).
 */
import http from 'node:http';
import { useStarted } from './lifecycle.ts';
import { spawn } from 'node:child_process';
import { mkdtemp, mkdir, writeFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';

export interface GitServer {
  url: string;
  root: string;
  /** Basic-auth credentials the server demands for repositories named `private-*`. */
  credentials: { username: string; password: string };
  close(): Promise<void>;
}

/** Runs git; rejects with its stderr on a non-zero exit. */
export function git(args: string[], cwd: string, input?: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn('git', args, {
      cwd,
      env: {
        ...process.env, GIT_AUTHOR_NAME: 'Fixture', GIT_AUTHOR_EMAIL: 'fixture@example.com',
        GIT_COMMITTER_NAME: 'Fixture', GIT_COMMITTER_EMAIL: 'fixture@example.com', GIT_TERMINAL_PROMPT: '0',
      },
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(out) : reject(new Error(`git ${args.join(' ')}: ${err}`))));
    if (input !== undefined) child.stdin.end(input);
    else child.stdin.end();
  });
}

export async function startGitServer(): Promise<GitServer> {
  const root = await mkdtemp(path.join(os.tmpdir(), 'git-server-'));
  const credentials = { username: 'bot', password: 's3cret-token' };
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (url.pathname.split('/')[1]?.startsWith('private-')) {
      const expected = `Basic ${Buffer.from(`${credentials.username}:${credentials.password}`).toString('base64')}`;
      if (req.headers.authorization !== expected) {
        res.writeHead(401, { 'WWW-Authenticate': 'Basic realm="git"' }).end();
        return;
      }
    }
    const child = spawn('git', ['http-backend'], {
      env: {
        ...process.env,
        GIT_PROJECT_ROOT: root,
        GIT_HTTP_EXPORT_ALL: '1',
        PATH_INFO: decodeURIComponent(url.pathname),
        QUERY_STRING: url.search.slice(1),
        REQUEST_METHOD: req.method ?? 'GET',
        CONTENT_TYPE: req.headers['content-type'] ?? '',
        REMOTE_USER: 'tester',
        REMOTE_ADDR: '127.0.0.1',
        ...(req.headers['content-encoding'] ? { HTTP_CONTENT_ENCODING: String(req.headers['content-encoding']) } : {}),
        ...(req.headers['git-protocol'] ? { GIT_PROTOCOL: String(req.headers['git-protocol']) } : {}),
      },
    });
    req.pipe(child.stdin);
    let head = Buffer.alloc(0);
    let headersDone = false;
    child.stdout.on('data', (chunk: Buffer) => {
      if (headersDone) {
        res.write(chunk);
        return;
      }
      head = Buffer.concat([head, chunk]);
      const end = head.indexOf('\r\n\r\n');
      if (end < 0) return;
      headersDone = true;
      let status = 200;
      for (const line of head.subarray(0, end).toString().split('\r\n')) {
        const i = line.indexOf(':');
        const name = line.slice(0, i).trim();
        const value = line.slice(i + 1).trim();
        if (name.toLowerCase() === 'status') status = Number.parseInt(value, 10);
        else res.setHeader(name, value);
      }
      res.writeHead(status);
      res.write(head.subarray(end + 4));
    });
    child.stdout.on('end', () => res.end());
    child.on('error', () => res.writeHead(500).end());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    root,
    credentials,
    async close() {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await rm(root, { recursive: true, force: true });
    },
  };
}

/**
 * Creates `<root>/<name>.git` (a bare repository accepting pushes) whose branch holds `files`,
 * committed from a scratch work tree. Returns the commit oid.
 */
export async function createRepo(server: GitServer, name: string, files: Record<string, string | Uint8Array>, options: { branch?: string; message?: string } = {}): Promise<string> {
  const branch = options.branch ?? 'main';
  const bare = path.join(server.root, `${name}.git`);
  await git(['init', '--bare', '--quiet', `--initial-branch=${branch}`, bare], server.root);
  await git(['config', 'http.receivepack', 'true'], bare);
  return commitFiles(server, name, files, { branch, message: options.message ?? 'Initial content', fresh: true });
}

/** Commits `files` (replacing the branch's tree when `fresh`) and pushes them to the bare repository. */
export async function commitFiles(server: GitServer, name: string, files: Record<string, string | Uint8Array>, options: { branch?: string; message?: string; fresh?: boolean } = {}): Promise<string> {
  const branch = options.branch ?? 'main';
  const bare = path.join(server.root, `${name}.git`);
  const work = await mkdtemp(path.join(os.tmpdir(), 'git-work-'));
  try {
    if (options.fresh) {
      await git(['init', '--quiet', `--initial-branch=${branch}`], work);
    } else {
      await git(['clone', '--quiet', '--branch', branch, bare, '.'], work);
    }
    for (const [file, content] of Object.entries(files)) {
      const full = path.join(work, file);
      await mkdir(path.dirname(full), { recursive: true });
      await writeFile(full, content);
    }
    await git(['add', '-A'], work);
    await git(['commit', '--quiet', '--allow-empty', '-m', options.message ?? 'Update'], work);
    await git(['push', '--quiet', bare, `HEAD:refs/heads/${branch}`], work);
    return (await git(['rev-parse', 'HEAD'], work)).trim();
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

/** Clones a branch with the git CLI into a temporary directory (the caller removes it). */
export async function cloneBranch(server: GitServer, name: string, branch: string): Promise<string> {
  const work = await mkdtemp(path.join(os.tmpdir(), 'git-clone-'));
  await git(['clone', '--quiet', '--branch', branch, path.join(server.root, `${name}.git`), work], os.tmpdir());
  return work;
}

export { pngFile } from './png.ts';

/** A Git server started before this file's tests and closed after them (as useTestApi does for the API). */
export function useGitServer(): GitServer {
  const current = useStarted('useGitServer()', startGitServer);
  return {
    get url() {
      return current().url;
    },
    get root() {
      return current().root;
    },
    get credentials() {
      return current().credentials;
    },
    close: () => current().close(),
  };
}
