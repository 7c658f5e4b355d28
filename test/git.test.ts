import { beforeAll, describe, expect, it } from 'vitest';
import { rm } from 'node:fs/promises';
import { ReceiveMessageCommand } from '@aws-sdk/client-sqs';
import { GetObjectCommand } from '@aws-sdk/client-s3';
import { createHash } from 'node:crypto';
import type { SQSEvent } from 'aws-lambda';
import { newOrg, useTestApi, type TestOrg } from './support/api.ts';
import { createSpace } from './support/factories.ts';
import { cloneBranch, commitFiles, createRepo, git, pngFile, useGitServer } from './support/git-server.ts';
import { filesOf, settleGit } from './support/git-sync.ts';
import { s3, sqs } from '../shared/aws/clients.ts';
import { config } from '../shared/config.ts';
import { IMPORT_CONCURRENCY } from '../shared/git/import.ts';
import { PACK_BYTES } from '../shared/content/blob-packs.ts';
import { getJsonBlob } from '../shared/content/blobs.ts';
import { walkPages } from '../shared/content/tree.ts';
import type { Manifest } from '../shared/content/types.ts';
import { handler as gitWorker } from '../functions/workers/git/handler.ts';
import { storedInPartition, storedLike } from './support/stored.ts';
import { pollOnce } from '../shared/local/queue-poller.ts';
import { revisionEntity } from '../shared/db/entities/revision.ts';
import { spaceEntity } from '../shared/db/entities/space.ts';

const api = useTestApi();
const server = useGitServer();
let org: TestOrg;

beforeAll(async () => {
  org = await newOrg();
});

/** The documentation repository teams keep: config with a BOM and `./docs/`, SUMMARY, nested READMEs, assets, includes. */
function fixture(prefix = ''): Record<string, string | Uint8Array> {
  const p = (file: string) => `${prefix}${file}`;
  return {
    [p('.gitbook.yaml')]: '\uFEFFroot: ./docs/\nstructure:\n  readme: README.md\n  summary: SUMMARY.md\n',
    [p('docs/SUMMARY.md')]: [
      '# Table of contents', '',
      '* [Welcome](README.md)',
      '* [Guide](guide/README.md)',
      '    - [Setup](guide/setup.md)',
      '        * [Advanced](guide/advanced.md)', '',
      '## Reference', '',
      '* [API](reference/api.md)',
      '* [Website](https://example.com)', '',
    ].join('\n'),
    [p('docs/README.md')]: '---\ndescription: Welcome to the docs\n---\n\n# Welcome\n\nStart with the [guide](guide/README.md).\n',
    [p('docs/guide/README.md')]: '# Guide\n\nSee [setup](setup.md).\n',
    [p('docs/guide/setup.md')]: [
      '---', 'icon: gear', '---', '', '# Setup', '',
      '{% hint style="info" %}', 'Install first.', '{% endhint %}', '',
      '![Diagram](<../.gitbook/assets/my diagram.png>)', '',
      '{% include "../.gitbook/includes/warning.md" %}', '',
    ].join('\n'),
    [p('docs/guide/advanced.md')]: '# Advanced\n\nDeep things.\n',
    [p('docs/reference/api.md')]: '# API\n\nBack to [setup](../guide/setup.md#install).\n',
    [p('docs/.gitbook/assets/my diagram.png')]: pngFile(3, 2),
    [p('docs/.gitbook/includes/warning.md')]: '---\ntitle: Warning\n---\n\nBe careful.\n',
    [p('docs/notlisted.md')]: '# Not listed\n',
  };
}

let repoCounter = 0;
async function newRepo(files = fixture()): Promise<{ name: string; url: string; head: string }> {
  const name = `docs-${Date.now()}-${repoCounter++}`;
  const head = await createRepo(server, name, files);
  return { name, url: `${server.url}/${name}.git`, head };
}

const settle = (spaceId: string) => settleGit(api, org.admin.token, spaceId);

async function importInto(spaceId: string, body: Record<string, unknown>) {
  const res = await api.request('POST', `/spaces/${spaceId}/git/import`, { token: org.admin.token, body: { ref: 'refs/heads/main', ...body } });
  expect(res.status).toBe(204);
  return settle(spaceId);
}

async function exportFrom(spaceId: string, body: Record<string, unknown>) {
  const res = await api.request('POST', `/spaces/${spaceId}/git/export`, { token: org.admin.token, body: { commitMessage: 'Export', ...body } });
  expect(res.status).toBe(204);
  return settle(spaceId);
}

async function revisions(spaceId: string) {
  return storedLike(revisionEntity.key({ spaceId, revisionId: '' }));
}


describe('git sync: validation and permissions', () => {
  it('validates the bodies and needs the edit role', async () => {
    const spaceId = (await createSpace(api, org)).id;
    const post = (op: string, body: unknown, token = org.admin.token) => api.request('POST', `/spaces/${spaceId}/git/${op}`, { token, body });
    expect((await post('import', { ref: 'refs/heads/main' })).body.error.message).toBe('url: is required');
    expect((await post('import', { url: 'ftp://x/y.git', ref: 'refs/heads/main' })).body.error.message).toBe('url: the ftp scheme is not allowed (http and https only)');
    expect((await post('import', { url: 'https://x/y.git' })).body.error.message).toBe('ref: is required');
    expect((await post('import', { url: 'https://x/y.git', ref: 'main' })).body.error.message).toBe('ref: must be of the form refs/heads/<branch>');
    // A branch name git would refuse is a 400 now, not three failed clones later.
    for (const ref of ['refs/heads/../../x', 'refs/heads/a b', 'refs/heads/a.lock', 'refs/heads/a//b', 'refs/heads/.hidden', 'refs/heads/a@{1}']) {
      const bad = await post('import', { url: 'https://x/y.git', ref });
      expect(bad.status, ref).toBe(400);
      expect(bad.body.error.message, ref).toMatch(/^ref: must be a valid git branch name/);
    }
    expect((await post('import', { url: 'https://x/y.git', ref: 'refs/heads/main', timestamp: 'yesterday' })).status).toBe(400);
    expect((await post('import', { url: 'https://x/y.git', ref: 'refs/heads/main', force: 'yes' })).status).toBe(400);
    expect((await post('import', { url: 'https://x/y.git', ref: 'refs/heads/main', gitInfo: { provider: 'bitbucket' } })).body.error.message).toBe('gitInfo.provider: must be github or gitlab');
    expect((await post('export', { url: 'https://x/y.git', ref: 'refs/heads/main' })).body.error.message).toBe('commitMessage: is required');
    const reader = await org.member('read');
    expect((await post('import', { url: 'https://x/y.git', ref: 'refs/heads/main' }, reader.token)).status).toBe(403);
    const locked = await api.request('PATCH', `/spaces/${spaceId}`, { token: org.admin.token, body: { editMode: 'locked' } });
    expect(locked.status).toBe(200);
    expect((await post('import', { url: 'https://x/y.git', ref: 'refs/heads/main' })).status).toBe(403);
    expect((await api.request('DELETE', `/spaces/${spaceId}/git/legacy-installation`, { token: org.admin.token })).status).toBe(204);
    expect((await api.request('DELETE', `/spaces/${spaceId}/git/legacy-installation`, { token: org.admin.token })).status).toBe(204);
    const info = await api.request('GET', `/spaces/${spaceId}/git/info`, { token: org.admin.token });
    // Nothing imported or exported: a pending installation, nothing to date.
    expect(info.body).toEqual({
      repoName: '', installationId: spaceId, installationStatus: 'pending', installationProvider: 'github', integration: '', url: '',
      operations: { last: null, running: null },
    });
  });
});

describe('git import', () => {
  it('imports SUMMARY, nested READMEs, frontmatter, tags, assets with spaces and includes through the queue', async () => {
    const repo = await newRepo();
    const spaceId = (await createSpace(api, org)).id;
    const info = await importInto(spaceId, { url: repo.url });
    expect(info.operations.last).toMatchObject({ operation: 'import', status: 'succeeded', commit: repo.head, url: repo.url, ref: 'refs/heads/main' });
    // Any host but GitHub is presented as GitLab, the documented provider of self-managed hosts.
    expect(info).toMatchObject({
      url: repo.url, repoName: repo.name, integration: 'git-sync', installationId: spaceId, installationStatus: 'active', installationProvider: 'gitlab',
      updatedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
    // The space presents the same installation as its `gitSync` (the public GitSyncState,
    // checked against the public description like every answer of these tests).
    const space = (await api.request('GET', `/spaces/${spaceId}`, { token: org.admin.token })).body;
    expect(space.gitSync).toEqual({
      installationId: spaceId, installationStatus: 'active', installationProvider: 'gitlab',
      repoName: repo.name, integration: 'git-sync', url: repo.url, updatedAt: info.updatedAt,
    });

    const pages = (await api.request('GET', `/spaces/${spaceId}/content/pages`, { token: org.admin.token })).body.pages;
    const outline = (list: { title: string; type: string; path: string; git?: { path: string }; pages: unknown[] }[]): unknown[] =>
      list.map((p) => [p.title, p.type, p.path, p.git?.path ?? null, outline(p.pages as never)]);
    expect(outline(pages)).toEqual([
      ['Welcome', 'document', 'welcome', 'README.md', []],
      ['Guide', 'document', 'guide', 'guide/README.md', [
        ['Setup', 'document', 'guide/setup', 'guide/setup.md', [
          ['Advanced', 'document', 'guide/setup/advanced', 'guide/advanced.md', []],
        ]],
      ]],
      ['Reference', 'group', 'reference', null, [
        ['API', 'document', 'reference/api', 'reference/api.md', []],
        ['Website', 'link', 'reference/website', null, []],
      ]],
    ]);
    expect(pages[0].description).toBe('Welcome to the docs');
    expect(pages[2].pages[1].href).toBe('https://example.com');
    const setup = pages[1].pages[0];
    expect(setup.icon).toBe('gear');
    expect(setup.git.oid).toMatch(/^[0-9a-f]{40}$/);

    const content = (await api.request('GET', `/spaces/${spaceId}/content`, { token: org.admin.token })).body;
    expect(content.git).toEqual({ oid: repo.head, message: 'Initial content', createdByGitBook: false, url: repo.url, ref: 'refs/heads/main' });
    expect(content.files).toHaveLength(1);
    expect(content.files[0]).toMatchObject({ name: 'my diagram.png', contentType: 'image/png', dimensions: { width: 3, height: 2 }, git: { path: '.gitbook/assets/my diagram.png' } });
    expect(content.reusableContents).toEqual([{ id: expect.any(String), title: 'Warning', git: { oid: expect.any(String), path: '.gitbook/includes/warning.md' } }]);

    const doc = (await api.request('GET', `/spaces/${spaceId}/content/page/${setup.id}`, { token: org.admin.token })).body.document;
    const types = doc.nodes.map((n: { type: string }) => n.type);
    expect(types).toEqual(['hint', 'images', 'reusable-content']);
    const image = JSON.stringify(doc.nodes[1]);
    expect(image).toContain(JSON.stringify({ ref: { kind: 'file', file: content.files[0].id } }).slice(1, -1));
    expect(image.length > 0 && { kind: 'file', file: content.files[0].id }).toEqual({ kind: 'file', file: content.files[0].id });
    expect(doc.nodes[2].data.ref).toEqual({ kind: 'reusable-content', reusableContent: content.reusableContents[0].id });
    const api2 = (await api.request('GET', `/spaces/${spaceId}/content/page/${pages[2].pages[0].id}`, { token: org.admin.token })).body.document;
    const link = api2.nodes[0].nodes.find((n: { type?: string }) => n.type === 'link');
    expect(link.data.ref).toEqual({ kind: 'anchor', anchor: 'install', page: setup.id });
    const markdown = (await api.request('GET', `/spaces/${spaceId}/content/page/${pages[0].id}`, { token: org.admin.token, query: { format: 'markdown' } })).body.markdown;
    expect(markdown).toContain('Start with the [guide]');
  });

  it('keeps page ids on re-import, imports once per message under redelivery, and skips older timestamps', async () => {
    const repo = await newRepo();
    const spaceId = (await createSpace(api, org)).id;
    await importInto(spaceId, { url: repo.url, timestamp: '2030-01-01T00:00:00.000Z' });
    const before = (await api.request('GET', `/spaces/${spaceId}/content/pages`, { token: org.admin.token })).body.pages;
    const count = (await revisions(spaceId)).length;

    // An older operation is skipped.
    await commitFiles(server, repo.name, { 'docs/guide/advanced.md': '# Advanced\n\nChanged.\n' });
    const skipped = await importInto(spaceId, { url: repo.url, timestamp: '2029-01-01T00:00:00.000Z' });
    expect(skipped.operations.last).toMatchObject({ status: 'skipped', message: expect.stringContaining('later timestamp') });
    expect(await revisions(spaceId)).toHaveLength(count);

    // Redelivery: the same message twice makes one revision.
    const res = await api.request('POST', `/spaces/${spaceId}/git/import`, { token: org.admin.token, body: { url: repo.url, ref: 'refs/heads/main', timestamp: '2031-01-01T00:00:00.000Z' } });
    expect(res.status).toBe(204);
    let body: string | undefined;
    for (let i = 0; i < 10 && !body; i++) {
      const out = await sqs().send(new ReceiveMessageCommand({ QueueUrl: config.queueUrl('git')!, WaitTimeSeconds: 1, MaxNumberOfMessages: 10 }));
      body = out.Messages?.map((m) => m.Body!).find((b) => JSON.parse(b).spaceId === spaceId);
    }
    expect(body).toBeDefined();
    const record = (id: string) => ({ messageId: id, receiptHandle: id, body: body!, attributes: {} as never, messageAttributes: {}, md5OfBody: '', eventSource: 'aws:sqs', eventSourceARN: 'arn', awsRegion: 'us-east-1' });
    const event: SQSEvent = { Records: [record('a'), record('b')] };
    expect(await gitWorker(event)).toEqual({ batchItemFailures: [] });
    expect(await gitWorker({ Records: [record('c')] })).toEqual({ batchItemFailures: [] });
    const info = await settle(spaceId);
    expect(info.operations.last).toMatchObject({ status: 'succeeded', attempts: 1 });
    expect(await revisions(spaceId)).toHaveLength(count + 1);

    const after = (await api.request('GET', `/spaces/${spaceId}/content/pages`, { token: org.admin.token })).body.pages;
    expect(after.map((p: { id: string }) => p.id)).toEqual(before.map((p: { id: string }) => p.id));
    expect(after[1].pages[0].pages[0].git.oid).not.toBe(before[1].pages[0].pages[0].git.oid);
    // Only the changed page (Advanced) reads as updated; the others keep the first import's date.
    type Dated = { title: string; updatedAt: string; createdAt: string; pages: Dated[] };
    const dates = (pages: Dated[]): Record<string, [string, string]> => Object.assign({}, ...pages.map((p) => ({ [p.title]: [p.createdAt, p.updatedAt], ...dates(p.pages) })));
    const [was, now] = [dates(before), dates(after)];
    expect(Object.keys(now).sort()).toEqual(Object.keys(was).sort());
    for (const title of Object.keys(now)) {
      expect(now[title]![0], title).toBe(was[title]![0]);
      if (title === 'Advanced') expect(now[title]![1] > was[title]![1], title).toBe(true);
      else expect(now[title]![1], title).toBe(was[title]![1]);
    }
  });

  it('standalone makes a revision without touching the primary content', async () => {
    const repo = await newRepo();
    const spaceId = (await createSpace(api, org)).id;
    const space = (await api.request('GET', `/spaces/${spaceId}`, { token: org.admin.token })).body;
    const info = await importInto(spaceId, { url: repo.url, standalone: true });
    expect(info.operations.last).toMatchObject({ status: 'succeeded', revision: expect.any(String) });
    const after = (await api.request('GET', `/spaces/${spaceId}`, { token: org.admin.token })).body;
    expect(after.revision).toBe(space.revision);
    const revision = (await api.request('GET', `/spaces/${spaceId}/revisions/${info.operations.last.revision}`, { token: org.admin.token })).body;
    expect(revision.pages.map((p: { title: string }) => p.title)).toEqual(['Welcome', 'Guide', 'Reference']);
  });

  it('reads a repoProjectDirectory; without SUMMARY the tree comes from the folders; custom readme', async () => {
    const repo = await newRepo({
      'README.md': '# Not the docs\n',
      'packages/site/.gitbook.yaml': 'root: content\nstructure:\n  readme: intro.md\n',
      'packages/site/content/intro.md': '# Intro\n\nHello.\n',
      'packages/site/content/zeta.md': '# Zeta\n',
      'packages/site/content/guide/README.md': '# Guide\n',
      'packages/site/content/guide/one.md': '# One\n\n[Zeta](../zeta.md)\n',
    });
    const spaceId = (await createSpace(api, org)).id;
    const info = await importInto(spaceId, { url: repo.url, repoProjectDirectory: 'packages/site' });
    expect(info.operations.last.status).toBe('succeeded');
    const pages = (await api.request('GET', `/spaces/${spaceId}/content/pages`, { token: org.admin.token })).body.pages;
    const outline = (list: { title: string; pages: unknown[] }[]): unknown[] => list.map((p) => [p.title, outline(p.pages as never)]);
    expect(outline(pages)).toEqual([['Intro', []], ['Zeta', []], ['Guide', [['One', []]]]]);
    expect(pages[0].git.path).toBe('intro.md');
  });

  it('keeps .gitbook.yaml redirects on the revision and builds the commit URL from repoCommitURL', async () => {
    const repo = await newRepo({
      '.gitbook.yaml': 'redirects:\n  old/setup: ./guide/setup.md\n  /gone/: missing.md\n',
      'README.md': '# Home\n',
      'guide/setup.md': '# Setup\n',
    });
    const spaceId = (await createSpace(api, org)).id;
    const info = await importInto(spaceId, { url: repo.url, repoCommitURL: 'https://git.example.com/team/docs/commit/' });
    expect(info.operations.last.status).toBe('succeeded');
    const content = (await api.request('GET', `/spaces/${spaceId}/content`, { token: org.admin.token })).body;
    expect(content.git.url).toBe(`https://git.example.com/team/docs/commit/${repo.head}`);
    expect(content).not.toHaveProperty('gitRedirects');
    const setup = content.pages.find((p: { title: string }) => p.title === 'Setup');
    const [record] = (await revisions(spaceId)).filter((r) => r.id === info.operations.last.revision);
    expect(record!.gitRedirects).toEqual([{ from: 'old/setup', to: 'guide/setup.md', page: setup.id }, { from: 'gone', to: 'missing.md' }]);
  });

  it('a failing URL is reported in git info, credentials never shown', async () => {
    const spaceId = (await createSpace(api, org)).id;
    const url = `${server.url}/missing-repo.git`;
    const res = await api.request('POST', `/spaces/${spaceId}/git/import`, {
      token: org.admin.token, body: { url: url.replace('http://', 'http://bot:hunter2@'), ref: 'refs/heads/main' },
    });
    expect(res.status).toBe(204);
    const info = await settle(spaceId);
    // A repository the server does not have (or not for these credentials) fails once: retrying cannot change it.
    expect(info.operations.last).toMatchObject({ status: 'failed', url, attempts: 1, message: `Git import refs/heads/main from ${url} failed: the server answered HTTP 404` });
    await new Promise((resolve) => setTimeout(resolve, 1500));
    await pollOnce('git', 1);
    expect((await api.request('GET', `/spaces/${spaceId}/git/info`, { token: org.admin.token })).body.operations.last).toMatchObject({ status: 'failed', attempts: 1 });
    expect(JSON.stringify(info)).not.toContain('hunter2');
    const stored = await storedInPartition(spaceEntity.key({ spaceId }));
    expect(JSON.stringify(stored)).not.toContain('hunter2');
  });

  it('uses basic-auth credentials from the URL', async () => {
    const name = `private-${Date.now()}`;
    await createRepo(server, name, { 'README.md': '# Private\n' });
    const spaceId = (await createSpace(api, org)).id;
    const { username, password } = server.credentials;
    const url = `${server.url.replace('http://', `http://${username}:${password}@`)}/${name}.git`;
    const info = await importInto(spaceId, { url });
    expect(info.operations.last.status).toBe('succeeded');
    expect(info.url).toBe(`${server.url}/${name}.git`);
    expect(JSON.stringify(await storedInPartition(spaceEntity.key({ spaceId })))).not.toContain(password);
  });
});

/**
 * A generated repository of 300 pages in nested folders (13 sections of a README, 16 pages
 * and 6 deeper pages nested under the last, in two SUMMARY groups) and 50 assets (25 PNGs,
 * 25 binary files), every page linking to an asset and to its neighbour.
 */
const largeAsset = (n: number) => (n % 2 ? `blob-${String(n).padStart(2, '0')}.bin` : `asset-${String(n).padStart(2, '0')}.png`);

function largeFixture(): Record<string, string | Uint8Array> {
  const files: Record<string, string | Uint8Array> = { 'README.md': '# Home\n\nThe large repository.\n' };
  for (let n = 0; n < 50; n++) {
    files[`.gitbook/assets/${largeAsset(n)}`] = n % 2 ? Buffer.alloc(2048, n) : pngFile(n + 1, 2);
  }
  const summary = ['# Table of contents', '', '* [Home](README.md)'];
  for (let s = 0; s < 13; s++) {
    if (s === 0 || s === 7) summary.push('', `## Part ${s === 0 ? 'A' : 'B'}`, '');
    const dir = `section-${String(s).padStart(2, '0')}`;
    files[`${dir}/README.md`] = `# Section ${s}\n\nSee [the first page](page-01.md).\n`;
    summary.push(`* [Section ${s}](${dir}/README.md)`);
    for (let p = 1; p <= 22; p++) {
      const name = `page-${String(p).padStart(2, '0')}.md`;
      const deep = p > 16;
      const file = deep ? `${dir}/deep/${name}` : `${dir}/${name}`;
      const up = deep ? '../../' : '../';
      files[file] = [
        `# Page ${s}.${p}`, '', `Text of page ${s}.${p}, see the [section](${up}${dir}/README.md).`, '',
        `![Asset](${up}.gitbook/assets/${largeAsset((s * 22 + p) % 50)})`, '',
      ].join('\n');
      summary.push(`${deep ? '        ' : '    '}* [Page ${s}.${p}](${file})`);
    }
  }
  files['SUMMARY.md'] = `${summary.join('\n')}\n`;
  return files;
}

describe('git import of a large repository', () => {
  it('imports 300 pages and 50 assets in one job, storing them with bounded concurrency', async () => {
    const repo = await newRepo(largeFixture());
    const spaceId = (await createSpace(api, org)).id;
    // Observe the S3 puts of the job: how many, how many at once, and the packs of documents.
    const puts = { total: 0, inFlight: 0, maxInFlight: 0, packs: [] as number[], json: 0 };
    s3().middlewareStack.add((next, context) => async (args) => {
      if (context.commandName !== 'PutObjectCommand') return next(args);
      puts.total++;
      const input = args.input as { ContentType?: string; Body?: { length: number } };
      if (input.ContentType === 'application/x-ndjson') puts.packs.push(input.Body!.length);
      if (input.ContentType === 'application/json') puts.json++;
      puts.inFlight++;
      puts.maxInFlight = Math.max(puts.maxInFlight, puts.inFlight);
      try {
        return await next(args);
      } finally {
        puts.inFlight--;
      }
    }, { step: 'initialize', name: 'testObservePuts' });
    const rssBefore = process.memoryUsage().rss;
    let rssPeak = rssBefore;
    const sampler = setInterval(() => (rssPeak = Math.max(rssPeak, process.memoryUsage().rss)), 5);
    let info;
    try {
      info = await importInto(spaceId, { url: repo.url });
    } finally {
      clearInterval(sampler);
      s3().middlewareStack.remove('testObservePuts');
    }
    rssPeak = Math.max(rssPeak, process.memoryUsage().rss);
    expect(info.operations.last).toMatchObject({ status: 'succeeded', commit: repo.head, attempts: 1 });

    const pages = (await api.request('GET', `/spaces/${spaceId}/content/pages`, { token: org.admin.token })).body.pages;
    type Page = { title: string; type: string; path: string; git?: { path: string }; pages: Page[] };
    const all: Page[] = [];
    const walk = (list: Page[]) => list.forEach((p) => (all.push(p), walk(p.pages)));
    walk(pages);
    const documents = all.filter((p) => p.type === 'document');
    expect(documents).toHaveLength(300);
    expect(new Set(documents.map((p) => p.git!.path)).size).toBe(300);
    expect(pages.map((p: Page) => [p.title, p.type])).toEqual([['Home', 'document'], ['Part A', 'group'], ['Part B', 'group']]);
    expect(pages[1].pages).toHaveLength(7);
    expect(pages[2].pages).toHaveLength(6);
    const section12 = pages[2].pages[5];
    expect(section12).toMatchObject({ title: 'Section 12', path: 'part-b/section-12', git: { path: 'section-12/README.md' } });
    expect(section12.pages).toHaveLength(16);
    expect(section12.pages[0]).toMatchObject({ title: 'Page 12.1', path: 'part-b/section-12/page-01', git: { path: 'section-12/page-01.md' } });
    expect(section12.pages[15].pages.map((p: Page) => p.git!.path)).toEqual([17, 18, 19, 20, 21, 22].map((n) => `section-12/deep/page-${n}.md`));
    expect(section12.pages[15].pages[5].path).toBe('part-b/section-12/page-16/page-22');

    const content = (await api.request('GET', `/spaces/${spaceId}/content`, { token: org.admin.token })).body;
    expect(content.files).toHaveLength(50);
    expect(content.files.filter((f: { contentType: string }) => f.contentType === 'image/png')).toHaveLength(25);
    expect(content.files.find((f: { name: string }) => f.name === 'asset-48.png')).toMatchObject({ dimensions: { width: 49, height: 2 } });
    expect(content.files.find((f: { name: string }) => f.name === 'blob-49.bin')).toMatchObject({ contentType: 'application/octet-stream', size: 2048 });
    const deep = (await api.request('GET', `/spaces/${spaceId}/content/page/${(section12.pages[15].pages[5] as unknown as { id: string }).id}`, { token: org.admin.token })).body.document;
    const refs = JSON.stringify(deep);
    expect(refs).toContain(`"page":"${(section12 as unknown as { id: string }).id}"`);
    expect(refs).toContain(`"file":"${content.files.find((f: { name: string }) => f.name === largeAsset((12 * 22 + 22) % 50))!.id}"`);

    // One bounded pool: every file is a put, several at once and never more than the pool's
    // slots in flight (each slot holds one object at a time). The 300 page documents are not
    // 300 puts: they go in packs of PACK_BYTES, each full but the last.
    const packed = puts.packs.reduce((sum, n) => sum + n, 0);
    expect(puts.packs.length).toBe(Math.ceil(packed / PACK_BYTES));
    expect(puts.packs.slice(0, -1).every((n) => n >= PACK_BYTES)).toBe(true);
    expect(puts.json).toBe(1); // the manifest; no document on its own
    // Files (one this process stored lately is not stored again), packs, the manifest.
    expect(puts.total).toBeGreaterThanOrEqual(40 + puts.packs.length + 1);
    expect(puts.total).toBeLessThanOrEqual(50 + puts.packs.length + 1);
    expect(puts.maxInFlight).toBeLessThanOrEqual(IMPORT_CONCURRENCY);
    expect(puts.maxInFlight).toBeGreaterThan(1);
    // Every page reads back from its pack, the document of its own file.
    const primary = (await api.request('GET', `/spaces/${spaceId}`, { token: org.admin.token })).body.revision as string;
    const [revision] = await storedLike(revisionEntity.key({ spaceId, revisionId: primary }));
    const stored = await getJsonBlob<Manifest>(revision!.manifest as string);
    const documentRefs = [...walkPages(stored.pages)].filter(({ page }) => page.type === 'document').map(({ page }) => page.document!);
    expect(new Set(documentRefs.map((ref) => /@([0-9a-f]{64}):/.exec(ref)?.[1])).size).toBe(puts.packs.length);
    for (const page of documents as unknown as { id: string; title: string }[]) {
      const read = await api.request('GET', `/spaces/${spaceId}/content/page/${page.id}`, { token: org.admin.token });
      expect(read.status).toBe(200);
      const text = page.title === 'Home' ? 'The large repository.' : page.title.startsWith('Section ') ? 'See ' : `Text of ${page.title.replace('Page', 'page')},`;
      expect(JSON.stringify(read.body.document), page.title).toContain(text);
    }
    // The worker runs in this process: its memory grows by far less than a Lambda's 1 GB.
    const deltaMb = (rssPeak - rssBefore) / 1024 / 1024;
    expect(deltaMb).toBeLessThan(256);
  });
});

describe('markdown edits of imported pages', () => {
  it('read relative links, images and includes from the page\'s file in the repository, as the import does', async () => {
    const repo = await newRepo();
    const spaceId = (await createSpace(api, org)).id;
    await importInto(spaceId, { url: repo.url });
    const token = org.admin.token;
    const content = (await api.request('GET', `/spaces/${spaceId}/content`, { token })).body;
    type Page = { id: string; title: string; type: string; pages: Page[] };
    const all: Page[] = [];
    const walk = (list: Page[]) => list.forEach((p) => (all.push(p), walk(p.pages)));
    walk(content.pages);
    const byTitle = (title: string) => all.find((p) => p.title === title)!;
    const diagram = content.files.find((f: { name: string }) => f.name === 'my diagram.png').id;
    const warning = content.reusableContents[0].id;
    const cr = (await api.request('POST', `/spaces/${spaceId}/change-requests`, { token, body: { subject: 'Edit' } })).body;
    const edit = (changes: unknown[]) => api.request('POST', `/spaces/${spaceId}/change-requests/${cr.id}/content`, { token, body: { changes }, query: { compat: false } });

    // Setup is docs/guide/setup.md: its links are read from docs/guide/, as the import reads them.
    const markdown = [
      '# Setup', '', 'See [the API](../reference/api.md#auth), [advanced](advanced.md) and [nothing](../nope.md).', '',
      '![Diagram](<../.gitbook/assets/my diagram.png>)', '', '{% include "../.gitbook/includes/warning.md" %}', '',
    ].join('\n');
    const updated = await edit([{ operation: 'update_page', page: byTitle('Setup').id, document: { markdown } }]);
    expect(updated.status, JSON.stringify(updated.body)).toBe(200);
    // A new page under Guide (docs/guide/README.md) is written in docs/guide/.
    const inserted = await edit([{ operation: 'insert_page', into: byTitle('Guide').id, document: { markdown: '# New\n\nBack to [setup](setup.md).\n' } }]);
    expect(inserted.status, JSON.stringify(inserted.body)).toBe(200);

    const read = async (id: string) => JSON.stringify((await api.request('GET', `/spaces/${spaceId}/change-requests/${cr.id}/content/page/${id}`, { token })).body.document);
    const setup = await read(byTitle('Setup').id);
    expect(setup).toContain(`"ref":{"kind":"anchor","anchor":"auth","page":"${byTitle('API').id}"}`);
    expect(setup).toContain(`"ref":{"kind":"page","page":"${byTitle('Advanced').id}"}`);
    expect(setup).toContain(`"kind":"file","file":"${diagram}"`);
    expect(setup).toContain(`"reusableContent":"${warning}"`);
    // A target that names nothing stays as written (as on import, and printed back as written).
    expect(setup).toContain('"page":"../nope.md"');
    expect(await read(inserted.body.changes[0].page.id)).toContain(`"ref":{"kind":"page","page":"${byTitle('Setup').id}"}`);

    // Groups and links hold no document.
    const group = all.find((p) => p.type === 'link')!;
    const refused = await edit([{ operation: 'update_page', page: group.id, document: { markdown: 'Body' } }]);
    expect(refused.status).toBe(400);
    expect(refused.body.error.message).toMatch(/^changes\.0\.document: page \w+ is a link page; only document pages hold a document/);
  });
});

describe('import warnings', () => {
  it('imports what it can read and says in the operation\'s message what it read differently: bad frontmatter, missing SUMMARY entries', async () => {
    const repo = await newRepo({
      'README.md': '# Home\n\nWelcome.\n',
      'SUMMARY.md': '# Table of contents\n\n* [Home](README.md)\n* [Broken](broken.md)\n* [Gone](gone.md)\n',
      'broken.md': '---\ndescription: [unclosed\n---\n\n# Broken\n\nStill here.\n',
    });
    const spaceId = (await createSpace(api, org)).id;
    const info = await importInto(spaceId, { url: repo.url });
    expect(info.operations.last.status).toBe('succeeded');
    const message = info.operations.last.message as string;
    expect(message).toMatch(/^Imported with 2 warnings: /);
    expect(message).toContain('SUMMARY.md: "Gone" links to gone.md, which is not in the repository (left out)');
    expect(message).toMatch(/broken\.md: the frontmatter is not valid YAML \([^)]+\); the page was read without it/);
    const pages = (await api.request('GET', `/spaces/${spaceId}/content/pages`, { token: org.admin.token })).body.pages;
    expect(pages.map((p: { title: string }) => p.title)).toEqual(['Home', 'Broken']);

    // The same markdown through an edit is refused, naming the field: it can be fixed there.
    const cr = (await api.request('POST', `/spaces/${spaceId}/change-requests`, { token: org.admin.token, body: { subject: 'Edit' } })).body;
    const refused = await api.request('POST', `/spaces/${spaceId}/change-requests/${cr.id}/content`, {
      token: org.admin.token, body: { changes: [{ operation: 'update_page', page: pages[0].id, document: { markdown: '---\ndescription: [unclosed\n---\n\nText.\n' } }] },
    });
    expect(refused.status).toBe(400);
    expect(refused.body.error.message).toMatch(/^changes\.0\.document\.markdown: the frontmatter \(the leading --- block\) is not valid YAML: /);
    // A clean import says nothing.
    await commitFiles(server, repo.name, { 'broken.md': '---\ndescription: Fixed\n---\n\n# Broken\n', 'SUMMARY.md': '# Table of contents\n\n* [Home](README.md)\n* [Broken](broken.md)\n' });
    const clean = (await importInto(spaceId, { url: repo.url })).operations.last;
    expect(clean.status).toBe('succeeded');
    expect(clean.message ?? null).toBeNull();
  });
});

describe('search of imported content', () => {
  it('finds the text of a reusable content on the page that includes it', async () => {
    const repo = await newRepo();
    const spaceId = (await createSpace(api, org)).id;
    await importInto(spaceId, { url: repo.url });
    // docs/guide/setup.md includes .gitbook/includes/warning.md ("Be careful.").
    const found = await api.request('GET', `/spaces/${spaceId}/search`, { token: org.admin.token, query: { query: 'careful' } });
    expect(found.status).toBe(200);
    expect(found.body.items.map((i: { title: string }) => i.title)).toEqual(['Setup']);
  });
});

describe('git re-import', () => {
  it('stores again only the files whose bytes changed; unchanged ones keep their id and blob', async () => {
    const repo = await newRepo({
      'README.md': '# Home\n\n![A](.gitbook/assets/a.png) ![B](.gitbook/assets/b.png)\n',
      '.gitbook/assets/a.png': pngFile(5, 4),
      '.gitbook/assets/b.png': pngFile(6, 4),
    });
    const spaceId = (await createSpace(api, org)).id;
    await importInto(spaceId, { url: repo.url });
    const content = async () => (await api.request('GET', `/spaces/${spaceId}/content`, { token: org.admin.token })).body;
    const before = await content();
    await commitFiles(server, repo.name, { '.gitbook/assets/b.png': pngFile(7, 3) });

    // The S3 puts of file bytes (not JSON documents) during the second import.
    const fileBodies: number[] = [];
    s3().middlewareStack.add((next, context) => async (args) => {
      const input = args.input as { ContentType?: string; Body?: { length: number } };
      if (context.commandName === 'PutObjectCommand' && input.ContentType !== 'application/json') fileBodies.push(input.Body?.length ?? 0);
      return next(args);
    }, { step: 'initialize', name: 'testObserveFilePuts' });
    let info;
    try {
      info = await importInto(spaceId, { url: repo.url });
    } finally {
      s3().middlewareStack.remove('testObserveFilePuts');
    }
    expect(info.operations.last).toMatchObject({ status: 'succeeded' });
    expect(fileBodies).toEqual([pngFile(7, 3).length]);

    const after = await content();
    type File = { id: string; name: string; size: number; dimensions?: unknown; downloadURL: string };
    const byName = (files: File[]) => Object.fromEntries(files.map((f) => [f.name, f]));
    const [a0, b0, a1, b1] = [byName(before.files)['a.png']!, byName(before.files)['b.png']!, byName(after.files)['a.png']!, byName(after.files)['b.png']!];
    const { downloadURL: _u0, ...a0Fields } = a0;
    const { downloadURL: _u1, ...a1Fields } = a1;
    expect(a1Fields).toEqual(a0Fields);
    expect(b1).toMatchObject({ id: b0.id, size: pngFile(7, 3).length, dimensions: { width: 7, height: 3 } });
    // The reused blob is still there to download.
    const stored = await s3().send(new GetObjectCommand({ Bucket: config.bucketName, Key: `blobs/${createHash('sha256').update(pngFile(5, 4)).digest('hex')}` }));
    expect(Buffer.from(await stored.Body!.transformToByteArray())).toEqual(Buffer.from(pngFile(5, 4)));
  });
});

describe('git export', () => {
  it('round trip: import then export of an unchanged space changes no file', async () => {
    const repo = await newRepo();
    const spaceId = (await createSpace(api, org)).id;
    await importInto(spaceId, { url: repo.url });
    const info = await exportFrom(spaceId, { url: repo.url, ref: 'refs/heads/main' });
    expect(info.operations.last).toMatchObject({ operation: 'export', status: 'succeeded', commit: repo.head });
    // To a new branch: a commit with the same tree.
    const branched = await exportFrom(spaceId, { url: repo.url, ref: 'refs/heads/export' });
    expect(branched.operations.last.status).toBe('succeeded');
    const dir = await cloneBranch(server, repo.name, 'export');
    try {
      const diff = await git(['diff', '--stat', repo.head, 'HEAD'], dir);
      expect(diff).toBe('');
      expect((await git(['log', '-1', '--format=%an|%s'], dir)).trim()).toBe('Docs Service|Export');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('exports edits: changed pages rewritten, new pages placed, SUMMARY regenerated', async () => {
    const repo = await newRepo();
    const spaceId = (await createSpace(api, org)).id;
    await importInto(spaceId, { url: repo.url });
    const pages = (await api.request('GET', `/spaces/${spaceId}/content/pages`, { token: org.admin.token })).body.pages;
    const guide = pages[1];
    const cr = (await api.request('POST', `/spaces/${spaceId}/change-requests`, { token: org.admin.token, body: { subject: 'Edit' } })).body;
    const edit = await api.request('POST', `/spaces/${spaceId}/change-requests/${cr.id}/content`, {
      token: org.admin.token,
      body: {
        changes: [
          { operation: 'update_page', page: guide.pages[0].id, document: { markdown: '# Setup\n\nNew setup text, see [API](/pages/' + pages[2].pages[0].id + ').\n' } },
          { operation: 'insert_page', into: guide.id, title: 'Troubleshooting', document: { markdown: '# Troubleshooting\n\nHelp.\n' } },
        ],
      },
    });
    expect(edit.status).toBe(200);
    expect((await api.request('POST', `/spaces/${spaceId}/change-requests/${cr.id}/merge`, { token: org.admin.token })).status).toBe(200);
    const info = await exportFrom(spaceId, { url: repo.url, ref: 'refs/heads/edits', commitMessage: 'Edits from the docs' });
    expect(info.operations.last.status).toBe('succeeded');
    const dir = await cloneBranch(server, repo.name, 'edits');
    try {
      const files = await filesOf(dir);
      expect(files.get('docs/guide/setup.md')!.toString()).toBe('---\nicon: gear\n---\n\n# Setup\n\nNew setup text, see [API](../reference/api.md).\n');
      expect(files.get('docs/guide/troubleshooting.md')!.toString()).toBe('# Troubleshooting\n\nHelp.\n');
      expect(files.get('docs/SUMMARY.md')!.toString()).toContain('  * [Troubleshooting](guide/troubleshooting.md)');
      expect(files.get('docs/README.md')!.toString()).toBe(fixture()['docs/README.md']);
      expect(files.get('docs/.gitbook/assets/my diagram.png')!.equals(fixture()['docs/.gitbook/assets/my diagram.png'] as Buffer)).toBe(true);
      expect(files.has('docs/notlisted.md')).toBe(true);
      // Exported files import back to the same content.
      const again = (await createSpace(api, org)).id;
      await importInto(again, { url: repo.url, ref: 'refs/heads/edits' });
      const reimported = (await api.request('GET', `/spaces/${again}/content/pages`, { token: org.admin.token })).body.pages;
      expect(reimported[1].pages.map((p: { title: string }) => p.title)).toEqual(['Setup', 'Troubleshooting']);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
