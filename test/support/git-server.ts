/**
 * A Git smart-HTTP server for tests (shared/local/git-http-server.ts), serving the bare
 * repositories under a temporary root on 127.0.0.1. Fixture repositories are made with the
 * git CLI, always spawned asynchronously (a synchronous git call against this server, in the
 * same process, would deadlock).
 */
import { useStarted } from './lifecycle.ts';
import { startGitHttpServer } from '../../shared/local/git-http-server.ts';
import { spawn } from 'node:child_process';
import { mkdtemp, mkdir, writeFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

export interface GitServer {
  url: string;
  root: string;
  /** Basic-auth credentials the server demands for repositories named `private-*`. */
  credentials: { username: string; password: string };
  /** The requests the server got for `<name>.git`, oldest first: method, path under the repository, query. */
  requests(name: string): string[];
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
  const expected = `Basic ${Buffer.from(`${credentials.username}:${credentials.password}`).toString('base64')}`;
  const log: { method: string; path: string; query: string }[] = [];
  // Every request may push (a user name); repositories named `private-*` demand basic auth.
  const server = await startGitHttpServer({
    root,
    authorize: (req, requestPath) => {
      log.push({ method: req.method ?? '', path: requestPath, query: new URL(req.url ?? '/', 'http://localhost').search });
      return requestPath.split('/')[1]?.startsWith('private-') && req.headers.authorization !== expected ? false : { user: 'tester' };
    },
  });
  return {
    url: server.url,
    root,
    credentials,
    requests(name) {
      const prefix = `/${name}.git/`;
      return log.filter((request) => request.path.startsWith(prefix)).map((request) => `${request.method} ${request.path.slice(prefix.length)}${request.query}`);
    },
    async close() {
      await server.close();
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
    requests: (name) => current().requests(name),
    close: () => current().close(),
  };
}
