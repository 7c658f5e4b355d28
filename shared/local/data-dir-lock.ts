import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { isRunning } from './local-stack-file.ts';

/**
 * One `npm start` per DATA_DIR. Two cannot share one: each starts its own DynamoDB Local and
 * fauxqs on the same files, and fauxqs loads its queues, messages and blobs into memory at
 * start and only writes through, so each server would miss what the other writes, and both
 * would run every message left in the queues.
 *
 * The lock is `<DATA_DIR>/server.pid`, created exclusively and holding the owner's pid; a file
 * whose process no longer runs (a server killed outright) is taken over.
 */
export function lockFile(dataDir: string): string {
  return join(resolve(dataDir), 'server.pid');
}

export class DataDirInUseError extends Error {}

/** Takes the lock for this process, or throws DataDirInUseError naming the server that holds it. */
export function lockDataDir(dataDir: string): () => void {
  const file = lockFile(dataDir);
  mkdirSync(resolve(dataDir), { recursive: true });
  for (let attempt = 0; attempt < 5; attempt++) {
    try {
      writeFileSync(file, `${process.pid}\n`, { flag: 'wx' });
      return () => releaseDataDir(dataDir);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    let owner: number;
    try {
      owner = Number(readFileSync(file, 'utf8').trim());
    } catch {
      continue; // released meanwhile: try again
    }
    if (owner === process.pid) return () => releaseDataDir(dataDir);
    if (isRunning(owner)) {
      throw new DataDirInUseError(`DATA_DIR ${resolve(dataDir)} is in use by another \`npm start\` (pid ${owner}); two servers cannot share one data folder. Stop that one, or give this one another DATA_DIR (or none, for an in-memory stack). If no such server runs, delete ${file}.`);
    }
    // Its owner is gone: take it over (removed only while it still names that dead process; the
    // exclusive create above then decides between two servers starting at once).
    try {
      if (Number(readFileSync(file, 'utf8').trim()) === owner) rmSync(file, { force: true });
    } catch {
      // Removed meanwhile.
    }
  }
  throw new DataDirInUseError(`could not lock DATA_DIR ${resolve(dataDir)} (${file} keeps changing): is another \`npm start\` starting on it?`);
}

/** Removes the lock if this process holds it (synchronous: runs in an 'exit' handler too). */
export function releaseDataDir(dataDir: string): void {
  const file = lockFile(dataDir);
  try {
    if (Number(readFileSync(file, 'utf8').trim()) === process.pid) rmSync(file, { force: true });
  } catch {
    // Already gone.
  }
}
