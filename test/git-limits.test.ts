import { beforeAll, describe, expect, it } from 'vitest';
import { newOrg, useTestApi, type TestOrg } from './support/api.ts';
import { createSpace } from './support/factories.ts';
import { createRepo, useGitServer } from './support/git-server.ts';
import { settleGit } from './support/git-sync.ts';
import { MAX_MARKDOWN_NESTING } from '../shared/content/markdown/index.ts';

/**
 * Git import under the markdown limits: a page over a limit fails the import with a
 * message naming the file and the limit; the worker survives and the space is unchanged.
 */
const api = useTestApi();
const server = useGitServer();
let org: TestOrg;

beforeAll(async () => {
  org = await newOrg();
});

const settle = (spaceId: string) => settleGit(api, org.admin.token, spaceId);

describe('git import of hostile markdown', () => {
  it('a page nested past the limit fails the import, naming the file; the next import works', async () => {
    const space = await createSpace(api, org);
    const before = await api.request('GET', `/spaces/${space.id}/content`, { token: org.admin.token });
    const name = `limits-${Date.now()}-a`;
    await createRepo(server, name, { 'README.md': '# Welcome\n', 'attack.md': `# Attack\n\n${'- '.repeat(8000)}x\n` });
    const started = await api.request('POST', `/spaces/${space.id}/git/import`, { token: org.admin.token, body: { url: `${server.url}/${name}.git`, ref: 'refs/heads/main' } });
    expect(started.status).toBe(204);
    const info = await settle(space.id);
    expect(info.operations.last).toMatchObject({ status: 'failed' });
    expect(info.operations.last.message).toContain(`attack.md: nests deeper than ${MAX_MARKDOWN_NESTING} levels`);
    const after = await api.request('GET', `/spaces/${space.id}/content`, { token: org.admin.token });
    expect(after.body.id).toBe(before.body.id);

    const fine = `limits-${Date.now()}-b`;
    await createRepo(server, fine, { 'README.md': '# Welcome\n', 'guide.md': '# Guide\n\n- a\n  - b\n' });
    const again = await api.request('POST', `/spaces/${space.id}/git/import`, { token: org.admin.token, body: { url: `${server.url}/${fine}.git`, ref: 'refs/heads/main', force: true } });
    expect(again.status).toBe(204);
    expect((await settle(space.id)).operations.last).toMatchObject({ status: 'succeeded' });
  }, 120_000);
});
