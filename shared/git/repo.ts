/**
 * Git over smart HTTP with isomorphic-git (no git binary in Lambda). A repository is
 * cloned shallow and single-branch into a temporary git directory under os.tmpdir()
 * (Lambda's /tmp), without a working tree: import reads blobs straight from the object
 * store and export writes blobs, trees and a commit there, then pushes.
 */
import fs from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import git from 'isomorphic-git';
import { egressHttp as http } from './egress-http.ts';

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

export interface FlatEntry {
  oid: string;
  mode: string;
}

export class Checkout {
  readonly cache = {};
  private constructor(
    readonly gitdir: string,
    readonly access: RemoteAccess,
    /** The commit the work starts from (the branch's head, or what a new branch grows on). */
    readonly head: string | undefined,
    readonly branch: string,
    /** Whether the branch exists in the repository. */
    readonly branchExists: boolean,
  ) {}

  /**
   * Fetches `ref` (refs/heads/<branch>) at depth 1. When the branch does not exist, the
   * clone starts from `fallbackRef` or the default branch (export to a new branch), or from
   * nothing when the repository is empty; `head` is then the commit the branch will grow on.
   */
  static async open(rawUrl: string, ref: string, options: { fallbackRef?: string; requireRef?: boolean } = {}): Promise<Checkout> {
    const access = remoteAccess(rawUrl);
    const branch = ref.replace(/^refs\/heads\//, '');
    const refs = await git.listServerRefs({ http, url: access.url, onAuth: access.onAuth, symrefs: true });
    const has = (name: string) => refs.some((r) => r.ref === name);
    let source: string | undefined;
    if (has(ref)) source = ref;
    else if (options.requireRef) throw new Error(`The branch ${branch} does not exist in the repository`);
    else if (options.fallbackRef && has(options.fallbackRef)) source = options.fallbackRef;
    else source = refs.find((r) => r.ref === 'HEAD')?.target ?? refs.find((r) => r.ref.startsWith('refs/heads/'))?.ref;
    const gitdir = await mkdtemp(path.join(os.tmpdir(), 'git-sync-'));
    try {
      if (!source) {
        await git.init({ fs, gitdir, bare: true, defaultBranch: branch });
        return new Checkout(gitdir, access, undefined, branch, false);
      }
      await git.clone({
        fs, http, dir: gitdir, gitdir, url: access.url, onAuth: access.onAuth, ref: source.replace(/^refs\/heads\//, ''),
        singleBranch: true, depth: 1, noCheckout: true, noTags: true,
      });
      const head = await git.resolveRef({ fs, gitdir, ref: 'HEAD' });
      return new Checkout(gitdir, access, head, branch, source === ref);
    } catch (error) {
      await rm(gitdir, { recursive: true, force: true });
      throw error;
    }
  }

  async close(): Promise<void> {
    await rm(this.gitdir, { recursive: true, force: true });
  }

  async commitMessage(oid: string): Promise<string> {
    const { commit } = await git.readCommit({ fs, gitdir: this.gitdir, oid, cache: this.cache });
    return commit.message.trim();
  }

  async treeOf(commit: string): Promise<string> {
    return (await git.readCommit({ fs, gitdir: this.gitdir, oid: commit, cache: this.cache })).commit.tree;
  }

  /** Every blob of the commit's tree by path. */
  async files(commit: string | undefined): Promise<Map<string, FlatEntry>> {
    const out = new Map<string, FlatEntry>();
    if (!commit) return out;
    const walk = async (treeOid: string, prefix: string) => {
      const { tree } = await git.readTree({ fs, gitdir: this.gitdir, oid: treeOid, cache: this.cache });
      for (const entry of tree) {
        const p = prefix ? `${prefix}/${entry.path}` : entry.path;
        if (entry.type === 'tree') await walk(entry.oid, p);
        else if (entry.type === 'blob') out.set(p, { oid: entry.oid, mode: entry.mode });
      }
    };
    await walk(await this.treeOf(commit), '');
    return out;
  }

  async readBlob(oid: string): Promise<Uint8Array> {
    return (await git.readBlob({ fs, gitdir: this.gitdir, oid, cache: this.cache })).blob;
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

  /** Commits `tree` on top of the head and pushes it to the branch. */
  async commitAndPush(input: { tree: string; message: string; force?: boolean }): Promise<string> {
    const now = Math.floor(Date.now() / 1000);
    const author = { name: 'Docs Service', email: 'docs-service@users.noreply.local', timestamp: now, timezoneOffset: 0 };
    const oid = await git.writeCommit({
      fs, gitdir: this.gitdir,
      commit: { message: `${input.message.trim()}\n`, tree: input.tree, parent: this.head ? [this.head] : [], author, committer: author },
    });
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
