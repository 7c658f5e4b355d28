import { afterAll, describe, expect, it } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from '../shared/local/emulators.ts';
import { newOrg, useTestApi } from './support/api.ts';
import { createSpace } from './support/factories.ts';
import { git } from './support/git-server.ts';
import { settleGit } from './support/git-sync.ts';

/**
 * `npm run git:serve`: the script itself (a real process) serves a repository of this machine
 * with a work tree, and the API imports it through the egress guard (127.0.0.1 is allowed in
 * the tests, as EGRESS_ALLOWLIST allows it for `npm start`).
 */
const api = useTestApi();
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const work = mkdtempSync(path.join(os.tmpdir(), 'git-serve-'));
const children: ChildProcess[] = [];
afterAll(() => {
  for (const child of children) child.kill('SIGTERM');
  rmSync(work, { recursive: true, force: true });
});

function serve(args: string[]): Promise<{ child: ChildProcess; output: string; code: number | null }> {
  const child = spawn(path.join(root, 'node_modules/.bin/node'), ['--disable-warning=ExperimentalWarning', 'shared/local/git-serve.ts', ...args], { cwd: root });
  children.push(child);
  let output = '';
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));
  return new Promise((resolve) => {
    child.stdout!.on('data', () => output.includes('Ctrl-C stops.') && resolve({ child, output, code: null }));
    child.on('exit', (code) => resolve({ child, output, code }));
  });
}

describe('npm run git:serve', () => {
  it('serves a work-tree repository over smart HTTP that the API imports, only that repository, and refuses bad arguments', async () => {
    const repository = path.join(work, 'handbook');
    mkdirSync(path.join(repository, 'guide'), { recursive: true });
    writeFileSync(path.join(repository, 'README.md'), '# Handbook\n\nSee the [guide](guide/start.md).\n');
    writeFileSync(path.join(repository, 'guide/start.md'), '# Start\n\nServed from this machine.\n');
    await git(['init', '--quiet', '--initial-branch=main'], repository);
    await git(['add', '-A'], repository);
    await git(['-c', 'user.name=T', '-c', 'user.email=t@example.com', 'commit', '--quiet', '-m', 'Docs'], repository);

    const port = await freePort();
    const { output } = await serve([repository, '--port', String(port)]);
    const url = `http://127.0.0.1:${port}/handbook/.git`;
    expect(output).toContain(`at ${url}`);
    expect(output).toContain(`EGRESS_ALLOWLIST=127.0.0.1:${port}`);
    // Nothing else of the folder is served.
    expect((await fetch(`http://127.0.0.1:${port}/other/.git/info/refs?service=git-upload-pack`)).status).toBe(404);

    const org = await newOrg();
    const space = await createSpace(api, org);
    const imported = await api.request('POST', `/spaces/${space.id}/git/import`, { token: org.admin.token, body: { url, ref: 'refs/heads/main' } });
    expect(imported.status).toBe(204);
    expect((await settleGit(api, org.admin.token, space.id)).operations.last).toMatchObject({ status: 'succeeded' });
    const pages = (await api.request('GET', `/spaces/${space.id}/content/pages`, { token: org.admin.token })).body.pages;
    expect(pages.map((p: { title: string }) => p.title)).toEqual(['Handbook', 'Start']);

    for (const [args, message] of [[[path.join(work, 'missing')], /is not a folder/], [[work], /is not a Git repository/], [[repository, '--port', 'x'], /--port must be a port number/], [[], /one repository folder is needed/]] as const) {
      const result = await serve([...args]);
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.output).toMatch(message);
      expect(result.output).toContain('usage: npm run git:serve');
    }
  }, 60_000);
});
