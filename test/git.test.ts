import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFile, readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { deflateSync } from 'node:zlib';
import { ReceiveMessageCommand } from '@aws-sdk/client-sqs';
import type { SQSEvent } from 'aws-lambda';
import { newOrg, startTestApi, type TestApi, type TestOrg } from './support/api.ts';
import { cloneBranch, commitFiles, createRepo, git, startGitServer, type GitServer } from './support/git-server.ts';
import { pollOnce } from '../shared/local/queue-poller.ts';
import { sqs } from '../shared/aws/clients.ts';
import { config } from '../shared/config.ts';
import { queryAll } from '../shared/db/operations.ts';
import { handler as gitWorker } from '../functions/workers/git/handler.ts';

let api: TestApi;
let server: GitServer;
let org: TestOrg;

beforeAll(async () => {
  api = await startTestApi();
  server = await startGitServer();
  org = await newOrg();
});
afterAll(async () => {
  await api.close();
  await server.close();
});

/** A valid 3x2 PNG. */
function tinyPng(): Buffer {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (buf: Buffer) => {
    let c = 0xffffffff;
    for (const b of buf) c = crcTable[(c ^ b) & 0xff]! ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type: string, data: Buffer) => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type), data]);
    const sum = Buffer.alloc(4);
    sum.writeUInt32BE(crc(body));
    return Buffer.concat([len, body, sum]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(3, 0);
  ihdr.writeUInt32BE(2, 4);
  ihdr[8] = 8;
  ihdr[9] = 2;
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr), chunk('IDAT', deflateSync(Buffer.alloc(2 * 10))), chunk('IEND', Buffer.alloc(0)),
  ]);
}

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
    [p('docs/.gitbook/assets/my diagram.png')]: tinyPng(),
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

async function newSpace(): Promise<string> {
  const res = await api.request('POST', `/orgs/${org.id}/spaces`, { token: org.admin.token, body: { title: 'Docs' } });
  expect(res.status).toBe(201);
  return res.body.id;
}

/** Feeds the git queue to the worker until the space has no queued or running operation. */
async function settle(spaceId: string) {
  for (let i = 0; i < 60; i++) {
    await pollOnce('git', 1);
    const info = await api.request('GET', `/spaces/${spaceId}/git/info`, { token: org.admin.token });
    if (info.body.operations.running === null && info.body.operations.last) return info.body;
  }
  throw new Error(`git operations of ${spaceId} did not settle`);
}

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
  return (await queryAll({ partition: `SPACE#${spaceId}`, prefix: 'REVISION#' }));
}

/** Every file of a directory (recursive), `.git` excluded. */
async function listFiles(dir: string, prefix = ''): Promise<Map<string, Buffer>> {
  const out = new Map<string, Buffer>();
  for (const entry of await readdir(path.join(dir, prefix), { withFileTypes: true })) {
    const rel = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.name === '.git') continue;
    if (entry.isDirectory()) for (const [k, v] of await listFiles(dir, rel)) out.set(k, v);
    else out.set(rel, await readFile(path.join(dir, rel)));
  }
  return out;
}

describe('git sync: validation and permissions', () => {
  it('validates the bodies and needs the edit role', async () => {
    const spaceId = await newSpace();
    const post = (op: string, body: unknown, token = org.admin.token) => api.request('POST', `/spaces/${spaceId}/git/${op}`, { token, body });
    expect((await post('import', { ref: 'refs/heads/main' })).body.error.message).toBe('url: is required');
    expect((await post('import', { url: 'ftp://x/y.git', ref: 'refs/heads/main' })).body.error.message).toBe('url: must be an http(s) URL');
    expect((await post('import', { url: 'https://x/y.git' })).body.error.message).toBe('ref: is required');
    expect((await post('import', { url: 'https://x/y.git', ref: 'main' })).body.error.message).toBe('ref: must be of the form refs/heads/<branch>');
    expect((await post('import', { url: 'https://x/y.git', ref: 'refs/heads/main', timestamp: 'yesterday' })).status).toBe(400);
    expect((await post('import', { url: 'https://x/y.git', ref: 'refs/heads/main', force: 'yes' })).status).toBe(400);
    expect((await post('export', { url: 'https://x/y.git', ref: 'refs/heads/main' })).body.error.message).toBe('commitMessage: is required');
    const reader = await org.member('read');
    expect((await post('import', { url: 'https://x/y.git', ref: 'refs/heads/main' }, reader.token)).status).toBe(403);
    const locked = await api.request('PATCH', `/spaces/${spaceId}`, { token: org.admin.token, body: { editMode: 'locked' } });
    expect(locked.status).toBe(200);
    expect((await post('import', { url: 'https://x/y.git', ref: 'refs/heads/main' })).status).toBe(403);
    expect((await api.request('DELETE', `/spaces/${spaceId}/git/legacy-installation`, { token: org.admin.token })).status).toBe(204);
    expect((await api.request('DELETE', `/spaces/${spaceId}/git/legacy-installation`, { token: org.admin.token })).status).toBe(204);
    const info = await api.request('GET', `/spaces/${spaceId}/git/info`, { token: org.admin.token });
    expect(info.body).toEqual({ repoName: '', installationProvider: '', integration: '', url: '', updatedAt: '', operations: { last: null, running: null } });
  });
});

describe('git import', () => {
  it('imports SUMMARY, nested READMEs, frontmatter, tags, assets with spaces and includes through the queue', async () => {
    const repo = await newRepo();
    const spaceId = await newSpace();
    const info = await importInto(spaceId, { url: repo.url });
    expect(info.operations.last).toMatchObject({ operation: 'import', status: 'succeeded', commit: repo.head, url: repo.url, ref: 'refs/heads/main' });
    expect(info).toMatchObject({ url: repo.url, repoName: repo.name, integration: 'git-sync', installationProvider: 'git', updatedAt: expect.any(String) });

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
    const spaceId = await newSpace();
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
  });

  it('standalone makes a revision without touching the primary content', async () => {
    const repo = await newRepo();
    const spaceId = await newSpace();
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
    const spaceId = await newSpace();
    const info = await importInto(spaceId, { url: repo.url, repoProjectDirectory: 'packages/site' });
    expect(info.operations.last.status).toBe('succeeded');
    const pages = (await api.request('GET', `/spaces/${spaceId}/content/pages`, { token: org.admin.token })).body.pages;
    const outline = (list: { title: string; pages: unknown[] }[]): unknown[] => list.map((p) => [p.title, outline(p.pages as never)]);
    expect(outline(pages)).toEqual([['Intro', []], ['Zeta', []], ['Guide', [['One', []]]]]);
    expect(pages[0].git.path).toBe('intro.md');
  });

  it('a failing URL is reported in git info, credentials never shown', async () => {
    const spaceId = await newSpace();
    const url = `${server.url}/missing-repo.git`;
    const res = await api.request('POST', `/spaces/${spaceId}/git/import`, {
      token: org.admin.token, body: { url: url.replace('http://', 'http://bot:hunter2@'), ref: 'refs/heads/main' },
    });
    expect(res.status).toBe(204);
    const info = await settle(spaceId);
    expect(info.operations.last).toMatchObject({ status: 'failed', url, message: expect.stringContaining(url) });
    expect(info.operations.last.message).toMatch(/HTTP 404|could not be reached/);
    expect(JSON.stringify(info)).not.toContain('hunter2');
    const stored = await queryAll({ partition: `SPACE#${spaceId}` });
    expect(JSON.stringify(stored)).not.toContain('hunter2');
  });

  it('uses basic-auth credentials from the URL', async () => {
    const name = `private-${Date.now()}`;
    await createRepo(server, name, { 'README.md': '# Private\n' });
    const spaceId = await newSpace();
    const { username, password } = server.credentials;
    const url = `${server.url.replace('http://', `http://${username}:${password}@`)}/${name}.git`;
    const info = await importInto(spaceId, { url });
    expect(info.operations.last.status).toBe('succeeded');
    expect(info.url).toBe(`${server.url}/${name}.git`);
    expect(JSON.stringify(await queryAll({ partition: `SPACE#${spaceId}` }))).not.toContain(password);
  });
});

describe('git export', () => {
  it('round trip: import then export of an unchanged space changes no file', async () => {
    const repo = await newRepo();
    const spaceId = await newSpace();
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
    const spaceId = await newSpace();
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
      const files = await listFiles(dir);
      expect(files.get('docs/guide/setup.md')!.toString()).toBe('---\nicon: gear\n---\n\n# Setup\n\nNew setup text, see [API](../reference/api.md).\n');
      expect(files.get('docs/guide/troubleshooting.md')!.toString()).toBe('# Troubleshooting\n\nHelp.\n');
      expect(files.get('docs/SUMMARY.md')!.toString()).toContain('  * [Troubleshooting](guide/troubleshooting.md)');
      expect(files.get('docs/README.md')!.toString()).toBe(fixture()['docs/README.md']);
      expect(files.get('docs/.gitbook/assets/my diagram.png')!.equals(fixture()['docs/.gitbook/assets/my diagram.png'] as Buffer)).toBe(true);
      expect(files.has('docs/notlisted.md')).toBe(true);
      // Exported files import back to the same content.
      const again = await newSpace();
      await importInto(again, { url: repo.url, ref: 'refs/heads/edits' });
      const reimported = (await api.request('GET', `/spaces/${again}/content/pages`, { token: org.admin.token })).body.pages;
      expect(reimported[1].pages.map((p: { title: string }) => p.title)).toEqual(['Setup', 'Troubleshooting']);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
