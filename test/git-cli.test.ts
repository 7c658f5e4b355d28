import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { ObjectReader, runGit } from '../shared/git/cli.ts';
import { git } from './support/git-server.ts';

/** `git cat-file --batch` as the import reads blobs: many reads in flight, objects larger than a pipe chunk. */
describe('git object reader', () => {
  let root: string;
  const blobs: { oid: string; bytes: Buffer }[] = [];

  beforeAll(async () => {
    root = await mkdtemp(path.join(os.tmpdir(), 'git-cli-test-'));
    await git(['init', '--quiet', '--bare', 'repo.git'], root);
    // Sizes around and far above the 64 KB a pipe read gives, and empty.
    for (const size of [0, 1, 65_535, 65_536, 65_537, 3 * 1024 * 1024, 17, 300_000]) {
      const bytes = randomBytes(size);
      const file = path.join(root, `blob-${size}`);
      await writeFile(file, bytes);
      const oid = (await git(['hash-object', '-w', file], path.join(root, 'repo.git'))).trim();
      blobs.push({ oid, bytes });
    }
  });

  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it('answers every read with its object, in any number at once, and a missing object with an error', async () => {
    const reader = new ObjectReader(path.join(root, 'repo.git'), root);
    try {
      const reads = [...blobs, ...blobs.slice().reverse()].map(async ({ oid, bytes }) => {
        const object = await reader.read(oid);
        expect(object.type).toBe('blob');
        expect(object.bytes.equals(bytes), `${bytes.length} bytes`).toBe(true);
      });
      const missing = reader.read('0123456789012345678901234567890123456789');
      await Promise.all(reads);
      await expect(missing).rejects.toThrow(/missing/);
      // Still answering after a missing object.
      expect((await reader.read(blobs[1]!.oid)).bytes.equals(blobs[1]!.bytes)).toBe(true);
      await expect(reader.read('HEAD; rm -rf /')).rejects.toThrow(/Not an object id/);
    } finally {
      reader.close();
    }
  });

  it('runs git without the caller\'s configuration or credentials prompts, and names the failure', async () => {
    await expect(runGit(['ls-remote', 'http://127.0.0.1:9/none.git'], { cwd: root, home: root, timeoutMs: 10_000 }))
      .rejects.toThrow(/^git ls-remote failed: /);
    // Only http is allowed: another transport is refused by git itself.
    await expect(runGit(['ls-remote', `file://${path.join(root, 'repo.git')}`], { cwd: root, home: root, timeoutMs: 10_000 }))
      .rejects.toThrow(/transport 'file' not allowed/);
  });
});
