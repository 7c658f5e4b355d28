import { beforeAll, describe, expect, it } from 'vitest';
import { mkdir, rm, symlink } from 'node:fs/promises';
import path from 'node:path';
import { newOrg, useTestApi, type TestOrg } from './support/api.ts';
import { createSpace, editChangeRequest, createChangeRequest, mergeChangeRequest } from './support/factories.ts';
import { cloneBranch, createRepo, git, useGitServer } from './support/git-server.ts';
import { settleGit } from './support/git-sync.ts';

/**
 * Git sync with repositories as teams keep them: what is not documentation (submodules,
 * symbolic links) is left alone by import and export.
 */
const api = useTestApi();
const server = useGitServer();
let org: TestOrg;

beforeAll(async () => {
  org = await newOrg();
});

const settle = (spaceId: string) => settleGit(api, org.admin.token, spaceId);
let counter = 0;

/** Commits with the git CLI in a clone of the branch (for what files cannot say: links, submodules). */
async function commitInClone(name: string, change: (work: string) => Promise<void>, options: { message?: string; index?: (work: string) => Promise<unknown> } = {}): Promise<string> {
  const work = await cloneBranch(server, name, 'main');
  try {
    await change(work);
    await git(['add', '-A'], work);
    await options.index?.(work);
    await git(['-c', 'user.name=Dev', '-c', 'user.email=dev@example.com', 'commit', '-q', '-m', options.message ?? 'Change'], work);
    await git(['push', '-q', 'origin', 'HEAD:refs/heads/main'], work);
    return (await git(['rev-parse', 'HEAD'], work)).trim();
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

async function lsTree(name: string, branch: string): Promise<string[]> {
  const dir = await cloneBranch(server, name, branch);
  try {
    return (await git(['ls-tree', '-r', 'HEAD'], dir)).trim().split('\n');
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

describe('submodules and symbolic links', () => {
  it('are not imported as pages or files, and export keeps them as they are', async () => {
    const name = `links-${Date.now()}-${counter++}`;
    await createRepo(server, name, {
      'README.md': '# Home\n\nSee [the guide](guide.md).\n', 'guide.md': '# Guide\n',
      'SUMMARY.md': '# Table of contents\n\n* [Home](README.md)\n* [Guide](guide.md)\n',
    });
    const submodule = 'a'.repeat(40);
    await commitInClone(name, async (work) => {
      await symlink('/etc/passwd', path.join(work, 'passwd.md'));
      await mkdir(path.join(work, '.gitbook/assets'), { recursive: true });
      await symlink('/etc/hostname', path.join(work, '.gitbook/assets/host.png'));
    }, { index: (work) => git(['update-index', '--add', '--cacheinfo', `160000,${submodule},vendor/theme`], work) });
    const before = await lsTree(name, 'main');
    expect(before).toContain(`160000 commit ${submodule}\tvendor/theme`);

    const spaceId = (await createSpace(api, org)).id;
    const url = `${server.url}/${name}.git`;
    expect((await api.request('POST', `/spaces/${spaceId}/git/import`, { token: org.admin.token, body: { url, ref: 'refs/heads/main' } })).status).toBe(204);
    const imported = await settle(spaceId);
    expect(imported.operations.last).toMatchObject({ status: 'succeeded' });
    const content = (await api.request('GET', `/spaces/${spaceId}/content`, { token: org.admin.token })).body;
    // The link's target path is not a page's markdown, nor an image's bytes.
    expect(content.pages.map((p: { title: string }) => p.title)).toEqual(['Home', 'Guide']);
    expect(content.files).toEqual([]);

    // An edit in the app, exported: the commit changes that page only.
    const cr = await createChangeRequest(api, org, { id: spaceId });
    await editChangeRequest(api, org, { id: spaceId }, cr, [{ operation: 'update_page', page: content.pages[1].id, document: { markdown: '# Guide\n\nEdited.\n' } }]);
    await mergeChangeRequest(api, org, { id: spaceId }, cr);
    expect((await api.request('POST', `/spaces/${spaceId}/git/export`, { token: org.admin.token, body: { url, ref: 'refs/heads/main', commitMessage: 'Edit the guide' } })).status).toBe(204);
    expect((await settle(spaceId)).operations.last).toMatchObject({ operation: 'export', status: 'succeeded' });
    const after = await lsTree(name, 'main');
    const guide = (entries: string[]) => entries.find((e) => e.endsWith('\tguide.md'));
    expect(after.filter((e) => e !== guide(after))).toEqual(before.filter((e) => e !== guide(before)));
    expect(guide(after)).not.toBe(guide(before));
  });
});
