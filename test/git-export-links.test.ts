// Links to a page deleted in the app, through a Git export: GitBook writes them as
// `broken-reference` (the link keeps its text); the page's id, which the stored link still
// holds, would read as a path nobody wrote.
import { beforeAll, describe, expect, it } from 'vitest';
import { rm } from 'node:fs/promises';
import { newOrg, useTestApi, type TestOrg } from './support/api.ts';
import { createSpace } from './support/factories.ts';
import { cloneBranch, createRepo, useGitServer } from './support/git-server.ts';
import { filesOf, settleGit } from './support/git-sync.ts';

const api = useTestApi();
const server = useGitServer();
let org: TestOrg;

beforeAll(async () => {
  org = await newOrg();
});

type Page = { id: string; title: string; pages: Page[] };

async function sync(spaceId: string, op: 'import' | 'export', body: Record<string, unknown>) {
  const res = await api.request('POST', `/spaces/${spaceId}/git/${op}`, { token: org.admin.token, body: { ref: 'refs/heads/main', ...(op === 'export' ? { commitMessage: 'Export' } : {}), ...body } });
  expect(res.status, JSON.stringify(res.body)).toBe(204);
  expect((await settleGit(api, org.admin.token, spaceId)).operations.last.status).toBe('succeeded');
}

async function exportedFiles(name: string): Promise<Map<string, Buffer>> {
  const dir = await cloneBranch(server, name, 'main');
  try {
    return await filesOf(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

describe('links to a deleted page on Git export', () => {
  it('are written as broken-reference, keep their text, and read back the same', async () => {
    const name = `broken-${Date.now()}`;
    await createRepo(server, name, {
      'README.md': '# Start\n\nRead [the API](api.md), its [users](api.md#users) and [a missing page](missing.md).\n',
      'api.md': '# API\n\n## Users\n\nList them.\n',
      'SUMMARY.md': '# Table of contents\n\n* [Start](README.md)\n* [API](api.md)\n',
    });
    const url = `${server.url}/${name}.git`;
    const space = await createSpace(api, org, { title: 'Links' });
    await sync(space.id, 'import', { url });
    const pages = (await api.request('GET', `/spaces/${space.id}/content/pages`, { token: org.admin.token })).body.pages as Page[];
    const apiPage = pages.find((p) => p.title === 'API')!;

    const cr = (await api.request('POST', `/spaces/${space.id}/change-requests`, { token: org.admin.token, body: { subject: 'Drop the API page' } })).body;
    const edit = await api.request('POST', `/spaces/${space.id}/change-requests/${cr.id}/content`, { token: org.admin.token, body: { changes: [{ operation: 'delete_page', page: apiPage.id }] } });
    expect(edit.status, JSON.stringify(edit.body)).toBe(200);
    expect((await api.request('POST', `/spaces/${space.id}/change-requests/${cr.id}/merge`, { token: org.admin.token })).status).toBe(200);

    await sync(space.id, 'export', { url });
    const readme = (await exportedFiles(name)).get('README.md')!.toString();
    // The deleted page's links (to it and to its anchor) name no id; a link that never resolved stays as written.
    expect(readme).toContain('Read [the API](broken-reference), its [users](broken-reference) and [a missing page](missing.md).');
    expect(readme).not.toContain(apiPage.id);

    // Imported again and exported, the file does not change.
    await sync(space.id, 'import', { url });
    await sync(space.id, 'export', { url, force: true });
    expect((await exportedFiles(name)).get('README.md')!.toString()).toBe(readme);
  });
});
