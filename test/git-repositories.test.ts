import { beforeAll, describe, expect, it } from 'vitest';
import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { newOrg, useTestApi, type TestOrg } from './support/api.ts';
import { createSpace, editChangeRequest, createChangeRequest, mergeChangeRequest } from './support/factories.ts';
import { cloneBranch, commitFiles, createRepo, git, pngFile, useGitServer } from './support/git-server.ts';
import { MAX_IMPORT_FILE_BYTES } from '../shared/git/import.ts';
import { settleGit } from './support/git-sync.ts';
import { pollOnce } from '../shared/local/queue-poller.ts';

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
  }, 120_000);
});

describe('export onto a branch that moved on since the last sync', () => {
  const token = () => org.admin.token;
  const exportTo = async (spaceId: string, url: string, body: Record<string, unknown> = {}) => {
    expect((await api.request('POST', `/spaces/${spaceId}/git/export`, { token: token(), body: { url, ref: 'refs/heads/main', commitMessage: 'Edits from the docs', ...body } })).status).toBe(204);
    return (await settle(spaceId)).operations.last;
  };
  const editPage = async (spaceId: string, title: string, markdown: string) => {
    const pages = (await api.request('GET', `/spaces/${spaceId}/content/pages`, { token: token() })).body.pages;
    const cr = await createChangeRequest(api, org, { id: spaceId });
    await editChangeRequest(api, org, { id: spaceId }, cr, [{ operation: 'update_page', page: pages.find((p: { title: string }) => p.title === title).id, document: { markdown } }]);
    await mergeChangeRequest(api, org, { id: spaceId }, cr);
  };
  const fileAt = async (name: string, file: string) => {
    const dir = await cloneBranch(server, name, 'main');
    try {
      return {
        text: await readFile(path.join(dir, file), 'utf8').catch(() => undefined),
        head: (await git(['rev-parse', 'HEAD'], dir)).trim(),
        parents: (await git(['log', '-1', '--format=%P'], dir)).trim().split(' ').filter(Boolean),
        log: (await git(['log', '--topo-order', '--format=%an|%s', '-3'], dir)).trim().split('\n'),
      };
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  };

  it('keeps the edits made in Git: an edit of another page is merged, the same page edited on both sides fails and pushes nothing', async () => {
    const name = `moved-${Date.now()}-${counter++}`;
    await createRepo(server, name, {
      'README.md': '# Home\n', 'guide.md': '# Guide\n\nOld guide.\n', 'faq.md': '# FAQ\n\nOld answers.\n',
      'SUMMARY.md': '# Table of contents\n\n* [Home](README.md)\n* [Guide](guide.md)\n* [FAQ](faq.md)\n',
    });
    const url = `${server.url}/${name}.git`;
    const spaceId = (await createSpace(api, org)).id;
    expect((await api.request('POST', `/spaces/${spaceId}/git/import`, { token: token(), body: { url, ref: 'refs/heads/main' } })).status).toBe(204);
    expect((await settle(spaceId)).operations.last.status).toBe('succeeded');

    // Someone edits the guide in Git; the space edits the FAQ. The export keeps both.
    const gitEdit = await commitFiles(server, name, { 'guide.md': '# Guide\n\nNew guide, written in Git.\n' }, { message: 'Guide from Git' });
    await editPage(spaceId, 'FAQ', '# FAQ\n\nNew answers, written in the app.\n');
    const merged = await exportTo(spaceId, url);
    expect(merged).toMatchObject({ operation: 'export', status: 'succeeded' });
    const { operation } = (await api.request('GET', `/spaces/${spaceId}/git/info`, { token: token() })).body;
    expect(operation).toEqual({ state: 'success', direction: 'export', startedAt: merged.startedAt, endedAt: merged.finishedAt });
    const after = await fileAt(name, 'guide.md');
    expect(after.text).toBe('# Guide\n\nNew guide, written in Git.\n');
    expect((await fileAt(name, 'faq.md')).text).toBe('# FAQ\n\nNew answers, written in the app.\n');
    expect(merged.commit).toBe(after.head);
    // A merge of the branch's head and the space's own commit (with the export's message).
    expect(after.parents[0]).toBe(gitEdit);
    // The merge first; its two parents' commits follow in commit-date order, which is the same second here (either order).
    expect(after.log[0]).toBe('Docs Service|Merge the space\'s changes into main');
    expect(after.log.slice(1).sort()).toEqual(['Docs Service|Edits from the docs', 'Fixture|Guide from Git']);

    // Exporting again writes nothing new: the space's FAQ is on the branch, the Git guide kept.
    expect(await exportTo(spaceId, url)).toMatchObject({ status: 'succeeded', commit: after.head });
    expect((await fileAt(name, 'guide.md')).head).toBe(after.head);

    // The same page edited on both sides: a clear failure naming the file, the branch untouched, no retry.
    await commitFiles(server, name, { 'faq.md': '# FAQ\n\nAnswers edited in Git.\n' }, { message: 'FAQ from Git' });
    const branchHead = (await fileAt(name, 'faq.md')).head;
    await editPage(spaceId, 'FAQ', '# FAQ\n\nAnswers edited in the app again.\n');
    const conflict = await exportTo(spaceId, url);
    expect(conflict).toMatchObject({ status: 'failed', attempts: 1 });
    expect(conflict.message).toMatch(/^Git export refs\/heads\/main from http:\/\/127\.0\.0\.1:\d+\/moved-[\w-]+\.git failed: the branch main moved on since this space last synced with it \([0-9a-f]{7}, now [0-9a-f]{7}\) and these files changed on both sides: faq\.md; nothing was pushed: import the branch first to bring its changes into the space, or export with force to replace them$/);
    expect(await fileAt(name, 'faq.md')).toMatchObject({ head: branchHead, text: '# FAQ\n\nAnswers edited in Git.\n' });

    // force replaces the branch's files with the space's content (the guide it never imported too).
    expect(await exportTo(spaceId, url, { force: true })).toMatchObject({ status: 'succeeded' });
    expect((await fileAt(name, 'faq.md')).text).toBe('# FAQ\n\nAnswers edited in the app again.\n');
    expect((await fileAt(name, 'guide.md')).text).toBe('# Guide\n\nOld guide.\n');
  }, 120_000);

  it('refuses to export over a branch whose history was rewritten since the last sync', async () => {
    const name = `rewritten-${Date.now()}-${counter++}`;
    await createRepo(server, name, { 'README.md': '# Home\n\nFirst.\n' });
    const url = `${server.url}/${name}.git`;
    const spaceId = (await createSpace(api, org)).id;
    expect((await api.request('POST', `/spaces/${spaceId}/git/import`, { token: token(), body: { url, ref: 'refs/heads/main' } })).status).toBe(204);
    expect((await settle(spaceId)).operations.last.status).toBe('succeeded');
    // A force-push of unrelated history.
    const work = await mkdtemp(path.join(os.tmpdir(), 'git-rewrite-'));
    await git(['init', '-q', '--initial-branch=main'], work);
    await writeFile(path.join(work, 'README.md'), '# Home\n\nRewritten.\n');
    await git(['add', '-A'], work);
    await git(['-c', 'user.name=Dev', '-c', 'user.email=dev@example.com', 'commit', '-q', '-m', 'Rewrite'], work);
    await git(['push', '-q', '--force', path.join(server.root, `${name}.git`), 'HEAD:refs/heads/main'], work);
    const rewritten = (await git(['rev-parse', 'HEAD'], work)).trim();
    await rm(work, { recursive: true, force: true });
    // The old commits are gone from the server too.
    const bare = path.join(server.root, `${name}.git`);
    await git(['reflog', 'expire', '--expire=now', '--all'], bare);
    await git(['gc', '-q', '--prune=now'], bare);
    await editPage(spaceId, 'Home', '# Home\n\nEdited in the app.\n');
    const refused = await exportTo(spaceId, url);
    expect(refused).toMatchObject({ status: 'failed', attempts: 1 });
    expect(refused.message).toContain('the branch main no longer holds the commit this space last synced with');
    expect(await fileAt(name, 'README.md')).toMatchObject({ head: rewritten, text: '# Home\n\nRewritten.\n' });
  }, 60_000);
});

describe('branches', () => {
  it('an import of a branch that exists asks the remote for its refs once: the clone\'s own discovery, no ls-remote before it', async () => {
    const name = `branches-${Date.now()}-${counter++}`;
    await createRepo(server, name, { 'README.md': '# Home\n' });
    const spaceId = (await createSpace(api, org)).id;
    const before = server.requests(name).length;
    expect((await api.request('POST', `/spaces/${spaceId}/git/import`, { token: org.admin.token, body: { url: `${server.url}/${name}.git`, ref: 'refs/heads/main' } })).status).toBe(204);
    expect((await settle(spaceId)).operations.last).toMatchObject({ status: 'succeeded' });
    // Protocol v2: the advertisement, then ls-refs and fetch as two POSTs.
    expect(server.requests(name).slice(before)).toEqual(['GET info/refs?service=git-upload-pack', 'POST git-upload-pack', 'POST git-upload-pack']);
  });

  it('an import of a branch that does not exist fails once with its name, and is not retried', async () => {
    const name = `branches-${Date.now()}-${counter++}`;
    await createRepo(server, name, { 'README.md': '# Home\n' });
    const url = `${server.url}/${name}.git`;
    const spaceId = (await createSpace(api, org)).id;
    const before = (await api.request('GET', `/spaces/${spaceId}`, { token: org.admin.token })).body.revision;
    expect((await api.request('POST', `/spaces/${spaceId}/git/import`, { token: org.admin.token, body: { url, ref: 'refs/heads/feature/ünïcode' } })).status).toBe(204);
    const failed = (await settle(spaceId)).operations.last;
    expect(failed).toMatchObject({ status: 'failed', attempts: 1, ref: 'refs/heads/feature/ünïcode' });
    expect(failed.message).toBe(`Git import refs/heads/feature/ünïcode from ${url} failed: The branch feature/ünïcode does not exist in the repository`);
    // Past the queue's visibility timeout (1 s in tests) nothing comes back: the job was deleted, not left to SQS.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    await pollOnce('git', 1);
    const info = (await api.request('GET', `/spaces/${spaceId}/git/info`, { token: org.admin.token })).body;
    expect(info.operations.last).toMatchObject({ id: failed.id, status: 'failed', attempts: 1 });
    // The public GitSyncState's `operation`, as GitBook's clients read a sync's outcome.
    expect(info.operation).toEqual({ state: 'failure', direction: 'import', startedAt: failed.startedAt, endedAt: failed.finishedAt, error: failed.message });
    expect((await api.request('GET', `/spaces/${spaceId}`, { token: org.admin.token })).body.revision).toBe(before);
  });
});

describe('pages moved and deleted in Git', () => {
  it('a moved page keeps its id (and what points at it), a deleted one goes, the others stay as they were', async () => {
    const name = `moves-${Date.now()}-${counter++}`;
    await createRepo(server, name, {
      'README.md': '# Home\n\nRead [the install guide](install.md).\n', 'install.md': '# Install\n\nRun the installer.\n', 'old.md': '# Old\n\nObsolete.\n',
      'SUMMARY.md': '# Table of contents\n\n* [Home](README.md)\n* [Install](install.md)\n* [Old](old.md)\n',
    });
    const url = `${server.url}/${name}.git`;
    const spaceId = (await createSpace(api, org)).id;
    const importBranch = async () => {
      expect((await api.request('POST', `/spaces/${spaceId}/git/import`, { token: org.admin.token, body: { url, ref: 'refs/heads/main' } })).status).toBe(204);
      expect((await settle(spaceId)).operations.last.status).toBe('succeeded');
      return (await api.request('GET', `/spaces/${spaceId}/content/pages`, { token: org.admin.token })).body.pages as { id: string; title: string; path: string; git: { path: string } }[];
    };
    const before = await importBranch();
    await commitInClone(name, async (work) => {
      await mkdir(path.join(work, 'guides'));
      await git(['mv', 'install.md', 'guides/install.md'], work);
      await git(['rm', '-q', 'old.md'], work);
      await writeFile(path.join(work, 'README.md'), '# Home\n\nRead [the install guide](guides/install.md).\n');
      await writeFile(path.join(work, 'SUMMARY.md'), '# Table of contents\n\n* [Home](README.md)\n* [Install](guides/install.md)\n');
    }, { message: 'Move the install guide, drop the old page' });
    const after = await importBranch();
    expect(after.map((p) => [p.id, p.title, p.git.path])).toEqual([
      [before[0]!.id, 'Home', 'README.md'],
      [before[1]!.id, 'Install', 'guides/install.md'],
    ]);
    // The link follows the page.
    const home = (await api.request('GET', `/spaces/${spaceId}/content/page/${before[0]!.id}`, { token: org.admin.token })).body.document;
    expect(JSON.stringify(home)).toContain(`"ref":{"kind":"page","page":"${before[1]!.id}"}`);
  }, 60_000);
});

describe('a repository of many files', () => {
  it('imports the pages of a 20,000-file repository without SUMMARY.md in seconds', async () => {
    // A monorepo: 200 packages of 100 source files each (one blob, listed 20,000 times), and its docs.
    const name = `monorepo-${Date.now()}-${counter++}`;
    await createRepo(server, name, { 'README.md': '# Monorepo\n', 'docs/guide.md': '# Guide\n', 'docs/api/README.md': '# API\n', 'docs/api/auth.md': '# Auth\n' });
    await commitInClone(name, async () => {}, {
      message: 'Sources',
      index: async (work) => {
        const blob = (await git(['hash-object', '-w', '--stdin'], work, 'export const x = 1;\n')).trim();
        const lines: string[] = [];
        for (let p = 0; p < 200; p++) for (let f = 0; f < 100; f++) lines.push(`100644 ${blob}\tpackages/pkg-${p}/src/file-${f}.ts`);
        await git(['update-index', '--index-info'], work, `${lines.join('\n')}\n`);
      },
    });
    const spaceId = (await createSpace(api, org)).id;
    expect((await api.request('POST', `/spaces/${spaceId}/git/import`, { token: org.admin.token, body: { url: `${server.url}/${name}.git`, ref: 'refs/heads/main' } })).status).toBe(204);
    const last = (await settle(spaceId)).operations.last;
    expect(last).toMatchObject({ status: 'succeeded', attempts: 1 });
    // The folder tree was planned over 20,004 paths once (it read every path once per folder before: over a minute here).
    expect(Date.parse(last.finishedAt) - Date.parse(last.startedAt)).toBeLessThan(20_000);
    const pages = (await api.request('GET', `/spaces/${spaceId}/content/pages`, { token: org.admin.token })).body.pages;
    const outline = (list: { title: string; pages: unknown[] }[]): unknown[] => list.map((p) => [p.title, outline(p.pages as never)]);
    expect(outline(pages)).toEqual([['Monorepo', []], ['Guide', []], ['API', [['Auth', []]]]]);
  }, 120_000);
});

describe('a file over the size cap', () => {
  it('is left out with a warning; the pages import, and export keeps the file in the repository', async () => {
    const name = `large-file-${Date.now()}-${counter++}`;
    const big = Buffer.alloc(MAX_IMPORT_FILE_BYTES + 1);
    await createRepo(server, name, {
      'README.md': '# Home\n\n[The recording](.gitbook/assets/recording.mp4) and ![a chart](.gitbook/assets/chart.png)\n',
      '.gitbook/assets/recording.mp4': big, '.gitbook/assets/chart.png': pngFile(3, 3), 'SUMMARY.md': '# Table of contents\n\n* [Home](README.md)\n',
    });
    const url = `${server.url}/${name}.git`;
    const spaceId = (await createSpace(api, org)).id;
    expect((await api.request('POST', `/spaces/${spaceId}/git/import`, { token: org.admin.token, body: { url, ref: 'refs/heads/main' } })).status).toBe(204);
    const last = (await settle(spaceId)).operations.last;
    expect(last).toMatchObject({ status: 'succeeded', attempts: 1 });
    expect(last.message).toBe(`Imported with 1 warning: .gitbook/assets/recording.mp4: ${big.length} bytes, larger than the 100 MB a file may be (left out)`);
    const content = (await api.request('GET', `/spaces/${spaceId}/content`, { token: org.admin.token })).body;
    expect(content.files.map((f: { name: string }) => f.name)).toEqual(['chart.png']);
    // The link stays as written; an export leaves the file where it is.
    const home = await api.request('GET', `/spaces/${spaceId}/content/page/${content.pages[0].id}`, { token: org.admin.token, query: { format: 'markdown' } });
    expect(home.body.markdown).toContain('[The recording](.gitbook/assets/recording.mp4)');
    expect((await api.request('POST', `/spaces/${spaceId}/git/export`, { token: org.admin.token, body: { url, ref: 'refs/heads/copy', commitMessage: 'Copy' } })).status).toBe(204);
    expect((await settle(spaceId)).operations.last).toMatchObject({ operation: 'export', status: 'succeeded' });
    expect(await lsTree(name, 'copy')).toEqual(await lsTree(name, 'main'));
  }, 120_000);
});

describe('.gitbook.yaml and the project directory', () => {
  it('a root or project directory that is not in the repository fails the import once, naming it; the space keeps its content', async () => {
    const name = `roots-${Date.now()}-${counter++}`;
    await createRepo(server, name, { '.gitbook.yaml': 'root: ./documentation/\n', 'docs/README.md': '# Home\n' });
    const url = `${server.url}/${name}.git`;
    const spaceId = (await createSpace(api, org)).id;
    const before = (await api.request('GET', `/spaces/${spaceId}/content`, { token: org.admin.token })).body;
    const importWith = async (body: Record<string, unknown>) => {
      expect((await api.request('POST', `/spaces/${spaceId}/git/import`, { token: org.admin.token, body: { url, ref: 'refs/heads/main', ...body } })).status).toBe(204);
      return (await settle(spaceId)).operations.last;
    };
    expect(await importWith({})).toMatchObject({
      status: 'failed', attempts: 1, message: `Git import refs/heads/main from ${url} failed: .gitbook.yaml: the root documentation is not a folder of the repository`,
    });
    expect(await importWith({ repoProjectDirectory: 'packages/docs' })).toMatchObject({
      status: 'failed', attempts: 1, message: `Git import refs/heads/main from ${url} failed: The project directory packages/docs does not exist in the repository`,
    });
    const after = (await api.request('GET', `/spaces/${spaceId}/content`, { token: org.admin.token })).body;
    expect(after.id).toBe(before.id);
    expect(after.pages).toEqual(before.pages);
  }, 60_000);
});

describe('operation timestamps', () => {
  it('order operations by the time they say, whatever their offset or precision', async () => {
    const name = `stamps-${Date.now()}-${counter++}`;
    await createRepo(server, name, { 'README.md': '# Home\n\nFirst.\n' });
    const url = `${server.url}/${name}.git`;
    const spaceId = (await createSpace(api, org)).id;
    const importAt = async (timestamp: string) => {
      expect((await api.request('POST', `/spaces/${spaceId}/git/import`, { token: org.admin.token, body: { url, ref: 'refs/heads/main', force: true, timestamp } })).status).toBe(204);
      return (await settle(spaceId)).operations.last;
    };
    // 10:00 at +02:00 is 08:00 UTC.
    expect(await importAt('2030-01-01T10:00:00+02:00')).toMatchObject({ status: 'succeeded', timestamp: '2030-01-01T08:00:00.000Z' });
    // 09:00 UTC is later: applied (as a string, "09:00:00Z" sorts before "10:00:00+02:00").
    expect(await importAt('2030-01-01T09:00:00Z')).toMatchObject({ status: 'succeeded', timestamp: '2030-01-01T09:00:00.000Z' });
    // 08:59:59.5 UTC is earlier than 09:00 UTC: skipped (as written, "10:59:59.5+02:00" sorts after it).
    expect(await importAt('2030-01-01T10:59:59.5+02:00')).toMatchObject({ status: 'skipped' });
  }, 60_000);
});
