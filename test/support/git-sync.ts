/**
 * Git sync as tests drive it: the worker fed from the git queue until a space's operations
 * settle, and a checked-out tree read back as files.
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { pollOnce } from '../../shared/local/queue-poller.ts';
import type { TestApi } from './api.ts';

/** Feeds the git queue to the worker until the space has no queued or running operation; its git info then. */
export async function settleGit(api: TestApi, token: string, spaceId: string, polls = 60) {
  for (let i = 0; i < polls; i++) {
    await pollOnce('git', 1);
    const info = await api.request('GET', `/spaces/${spaceId}/git/info`, { token });
    if (info.body.operations.running === null && info.body.operations.last) return info.body;
  }
  throw new Error(`git operations of ${spaceId} did not settle`);
}

/** Every file of a directory (recursive) by its relative path, `.git` excluded. */
export async function filesOf(dir: string, prefix = ''): Promise<Map<string, Buffer>> {
  const out = new Map<string, Buffer>();
  for (const entry of await readdir(path.join(dir, prefix), { withFileTypes: true })) {
    const rel = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.name === '.git') continue;
    if (entry.isDirectory()) for (const [k, v] of await filesOf(dir, rel)) out.set(k, v);
    else out.set(rel, await readFile(path.join(dir, rel)));
  }
  return out;
}
