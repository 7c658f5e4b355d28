/**
 * A repository of a Git job. It is cloned shallow, single-branch and bare by the git CLI
 * (the git worker's container image carries the binary) into a temporary folder under
 * os.tmpdir() (Lambda's /tmp): git downloads and indexes the pack natively, several times
 * faster than isomorphic-git's JavaScript indexer, and the pack never enters this process's
 * memory. Every request of the CLI goes through the egress guard (relay.ts). Import reads
 * the tree with one `git ls-tree` and blobs through one `git cat-file --batch`; export
 * writes blobs, trees and a commit with isomorphic-git and pushes with it (egress-http.ts).
 */
import fs from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import git from 'isomorphic-git';
import { egressHttp as http } from './egress-http.ts';
import { GitRelay } from './relay.ts';
import { GitCommandError, ObjectReader, runGit } from './cli.ts';

export interface RemoteAccess {
  /** URL without credentials. */
  url: string;
  onAuth?: () => { username: string; password: string };
}

/** Splits basic-auth credentials from a URL: they go to onAuth, never into a message or record. */
export function remoteAccess(raw: string): RemoteAccess {
  const url = new URL(raw);
  const username = decodeURIComponent(url.username);
  const password = decodeURIComponent(url.password);
  url.username = '';
  url.password = '';
  return { url: url.toString(), ...(username || password ? { onAuth: () => ({ username, password }) } : {}) };
}

/** A URL with any credentials removed (for storage and logs). */
export function redactUrl(raw: string): string {
  try {
    return remoteAccess(raw).url;
  } catch {
    return raw.replace(/\/\/[^/@]*@/, '//');
  }
}

/** Removes credentials of `url` wherever they appear in a text (error messages). */
export function redactText(text: string, url: string): string {
  let out = text.replace(/(https?:\/\/)[^/\s@]+@/g, '$1');
  try {
    const u = new URL(url);
    for (const secret of [u.password, decodeURIComponent(u.password)]) if (secret) out = out.split(secret).join('***');
  } catch {
    // not a URL: nothing more to hide
  }
  return out;
}

/** Repository name from its URL (`owner/name`), for Git info. */
export function repoNameOf(url: string): string {
  try {
    const parts = new URL(url).pathname.replace(/\.git$/, '').split('/').filter(Boolean);
    return parts.slice(-2).join('/');
  } catch {
    return '';
  }
}

/** A failure that retrying cannot change (a branch that is not there, a conflict): recorded, not retried. */
export class FinalError extends Error {}

export interface FlatEntry {
  oid: string;
  mode: string;
  /** Bytes of a blob, when the listing said (`ls-tree -l`). */
  size?: number;
}

/**
 * Whether an entry is a regular file: what import reads. Symbolic links (120000) and
 * submodules (160000, a commit of another repository) are not content; export keeps them
 * as they are.
 */
export function isRegularFile(entry: FlatEntry | undefined): entry is FlatEntry {
  return entry?.mode === '100644' || entry?.mode === '100755';
}

/** A clone (ref discovery, pack download and indexing) must finish within this time (the git Lambda runs 5 minutes). */
export const GIT_CLONE_TIMEOUT_MS = 4 * 60_000;

export class Checkout {
  readonly cache = {};
  private reader: ObjectReader | undefined;
  /** Temporary folder of the job: the bare repository and git's HOME. */
  private readonly root: string;
  readonly gitdir: string;
  readonly access: RemoteAccess;
  /** The commit the work starts from (the branch's head, or what a new branch grows on). */
  readonly head: string | undefined;
  readonly branch: string;
  /** Whether the branch exists in the repository. */
  readonly branchExists: boolean;
  /** The `since` commit of `open`, when the repository still has it (fetched too). */
  readonly since?: string;

  private constructor(root: string, gitdir: string, access: RemoteAccess, head: string | undefined, branch: string, branchExists: boolean, since?: string, reader?: ObjectReader) {
    this.reader = reader;
    this.root = root;
    this.gitdir = gitdir;
    this.access = access;
    this.head = head;
    this.branch = branch;
    this.branchExists = branchExists;
    this.since = since;
  }

  /**
   * Fetches `ref` (refs/heads/<branch>) at depth 1 with the git CLI, through the loopback
   * relay to the egress guard (relay.ts). When the branch does not exist, the clone starts
   * from `fallbackRef` or the default branch (export to a new branch), or from nothing when
   * the repository is empty; `head` is then the commit the branch will grow on. `since`, an
   * older commit of the branch (the last sync), is fetched too when the branch moved on from
   * it and the repository still has it (protocol v2 serves any reachable commit).
   */
  static async open(rawUrl: string, ref: string, options: { fallbackRef?: string; requireRef?: boolean; since?: string } = {}): Promise<Checkout> {
    const access = remoteAccess(rawUrl);
    const branchOf = (name: string) => name.replace(/^refs\/heads\//, '');
    const branch = branchOf(ref);
    const root = await mkdtemp(path.join(os.tmpdir(), 'git-sync-'));
    const gitdir = path.join(root, 'repo.git');
    const home = { cwd: root, home: root, timeoutMs: GIT_CLONE_TIMEOUT_MS };
    const relay = await GitRelay.start(rawUrl);
    let reader: ObjectReader | undefined;
    const clone = (sourceBranch: string) => viaRelay(relay, () => runGit([
      'clone', '--quiet', '--bare', '--depth', '1', '--single-branch', '--no-tags', '--branch', sourceBranch, relay.url, gitdir,
    ], home));
    try {
      // The branch asked for is nearly always there: clone it at once, one ref discovery
      // instead of two. The remote's refs are listed only when that clone fails, to tell a
      // missing branch from another failure and choose what to start from instead.
      let source = ref;
      try {
        await clone(branch);
      } catch (error) {
        // The guard's refusal, the remote's HTTP error, no git binary: nothing to fall back on.
        if (!(error instanceof GitCommandError)) throw error;
        const refs = await viaRelay(relay, () => runGit(['ls-remote', '--symref', relay.url], home)).then(parseLsRemote);
        if (refs.has(ref)) throw error;
        if (options.requireRef) throw new FinalError(`The branch ${branch} does not exist in the repository`);
        const fallback = options.fallbackRef && refs.has(options.fallbackRef)
          ? options.fallbackRef
          : refs.get('ref: HEAD') ?? [...refs.keys()].find((name) => name.startsWith('refs/heads/'));
        if (!fallback) {
          await runGit(['init', '--quiet', '--bare', `--initial-branch=${branch}`, gitdir], home);
          return new Checkout(root, gitdir, access, undefined, branch, false);
        }
        source = fallback;
        await rm(gitdir, { recursive: true, force: true });
        await clone(branchOf(source));
      }
      // The head is asked of the process that reads the job's objects (one git process fewer).
      reader = new ObjectReader(gitdir, root);
      const head = (await reader.branchHead(branchOf(source))).oid;
      let since: string | undefined;
      if (options.since && /^[0-9a-f]{40,64}$/.test(options.since) && source === ref) {
        if (options.since === head) since = head;
        // A commit the branch no longer has (history rewritten) is simply not there.
        else if (await runGit(['fetch', '--quiet', '--depth', '1', '--no-tags', relay.url, options.since], { ...home, cwd: gitdir }).then(() => true, () => false)) since = options.since;
      }
      return new Checkout(root, gitdir, access, head, branch, source === ref, since, reader);
    } catch (error) {
      reader?.close();
      await rm(root, { recursive: true, force: true });
      throw error;
    } finally {
      await relay.close();
    }
  }

  async close(): Promise<void> {
    this.reader?.close();
    await rm(this.root, { recursive: true, force: true });
  }

  private objects(): ObjectReader {
    return (this.reader ??= new ObjectReader(this.gitdir, this.root));
  }

  private async readObject(oid: string, type: string): Promise<Buffer> {
    const object = await this.objects().read(oid);
    if (object.type !== type) throw new Error(`The object ${oid} is a ${object.type}, not a ${type}`);
    return object.bytes;
  }

  async commitMessage(oid: string): Promise<string> {
    const text = (await this.readObject(oid, 'commit')).toString('utf8');
    const body = text.indexOf('\n\n');
    return body < 0 ? '' : text.slice(body + 2).trim();
  }

  async treeOf(commit: string): Promise<string> {
    const tree = /^tree ([0-9a-f]+)$/m.exec((await this.readObject(commit, 'commit')).toString('utf8'))?.[1];
    if (!tree) throw new Error(`The commit ${commit} names no tree`);
    return tree;
  }

  /** Every blob and submodule of the commit's tree by path (one `git ls-tree -r`): export writes the tree back with them. */
  async files(commit: string | undefined): Promise<Map<string, FlatEntry>> {
    const out = new Map<string, FlatEntry>();
    if (!commit) return out;
    const listing = await runGit(['ls-tree', '-r', '-l', '-z', '--full-tree', commit], { cwd: this.gitdir, home: this.root, timeoutMs: GIT_CLONE_TIMEOUT_MS });
    // `<mode> <type> <oid> <padded size or ->\t<path>\0`, paths as bytes (UTF-8 in practice).
    for (const record of listing.toString('utf8').split('\0')) {
      const tab = record.indexOf('\t');
      if (tab < 0) continue;
      const [mode, type, oid, size] = record.slice(0, tab).split(/ +/);
      if (type === 'blob') out.set(record.slice(tab + 1), { oid: oid!, mode: mode!, size: Number(size) });
      else if (type === 'commit') out.set(record.slice(tab + 1), { oid: oid!, mode: mode! });
    }
    return out;
  }

  async readBlob(oid: string): Promise<Uint8Array> {
    return this.readObject(oid, 'blob');
  }

  async writeBlob(bytes: Uint8Array): Promise<string> {
    return git.writeBlob({ fs, gitdir: this.gitdir, blob: bytes });
  }

  /** Builds the trees of a flat path map bottom-up; returns the root tree oid. */
  async writeTrees(files: Map<string, FlatEntry>): Promise<string> {
    interface Dir { files: Map<string, FlatEntry>; dirs: Map<string, Dir> }
    const root: Dir = { files: new Map(), dirs: new Map() };
    for (const [p, entry] of files) {
      const parts = p.split('/');
      let dir = root;
      for (const part of parts.slice(0, -1)) {
        let next = dir.dirs.get(part);
        if (!next) dir.dirs.set(part, (next = { files: new Map(), dirs: new Map() }));
        dir = next;
      }
      dir.files.set(parts.at(-1)!, entry);
    }
    const write = async (dir: Dir): Promise<string> => {
      const tree: { mode: string; path: string; oid: string; type: 'blob' | 'tree' }[] = [];
      for (const [name, sub] of dir.dirs) tree.push({ mode: '040000', path: name, oid: await write(sub), type: 'tree' });
      for (const [name, entry] of dir.files) tree.push({ mode: entry.mode, path: name, oid: entry.oid, type: 'blob' });
      return git.writeTree({ fs, gitdir: this.gitdir, tree });
    };
    return write(root);
  }

  /** Writes a commit of `tree` (on top of the head unless `parents` says otherwise), not pushed. */
  async writeCommit(input: { tree: string; message: string; parents?: string[] }): Promise<string> {
    const now = Math.floor(Date.now() / 1000);
    const author = { name: 'Docs Service', email: 'docs-service@users.noreply.local', timestamp: now, timezoneOffset: 0 };
    return git.writeCommit({
      fs, gitdir: this.gitdir,
      commit: { message: `${input.message.trim()}\n`, tree: input.tree, parent: input.parents ?? (this.head ? [this.head] : []), author, committer: author },
    });
  }

  /** Commits `tree` (as writeCommit) and pushes it to the branch. */
  async commitAndPush(input: { tree: string; message: string; force?: boolean; parents?: string[] }): Promise<string> {
    const oid = await this.writeCommit(input);
    const local = `refs/heads/${this.branch}`;
    await git.writeRef({ fs, gitdir: this.gitdir, ref: local, value: oid, force: true });
    const result = await git.push({
      fs, http, gitdir: this.gitdir, url: this.access.url, onAuth: this.access.onAuth, ref: local, remoteRef: local, force: input.force ?? false,
    });
    if (!result.ok) throw new Error(`The push was refused: ${result.error ?? JSON.stringify(result.refs)}`);
    return oid;
  }
}

/** git's blob id of some bytes. */
export async function gitBlobOid(bytes: Uint8Array): Promise<string> {
  return (await git.hashBlob({ object: bytes })).oid;
}

/** `git ls-remote --symref` -> ref name -> oid, and `ref: <name>` -> the symref's target (`ref: HEAD`). */
function parseLsRemote(output: Buffer): Map<string, string> {
  const refs = new Map<string, string>();
  for (const line of output.toString('utf8').split('\n')) {
    const [left, name] = line.split('\t');
    if (!left || !name) continue;
    if (left.startsWith('ref: ')) refs.set(`ref: ${name}`, left.slice(5));
    else refs.set(name, left);
  }
  return refs;
}

/** A git command that talks to the remote: when it fails, what the relay saw explains why (refusal, HTTP status). */
async function viaRelay<T>(relay: GitRelay, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    throw relay.error ?? error;
  }
}
