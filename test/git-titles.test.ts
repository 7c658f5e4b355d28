// Page and group titles through a Git export and a re-import: SUMMARY.md's link texts and
// headings are markdown, so a title with markdown characters must be written so that it reads
// back as the same title, and a title is one line (a line break would start another entry).
import { beforeAll, describe, expect, it } from 'vitest';
import { rm } from 'node:fs/promises';
import { newOrg, useTestApi, type TestOrg } from './support/api.ts';
import { createSpace } from './support/factories.ts';
import { cloneBranch, createRepo, useGitServer } from './support/git-server.ts';
import { filesOf, settleGit } from './support/git-sync.ts';
import { spaceWithChangeRequest } from './support/published-content.ts';

const api = useTestApi();
const server = useGitServer();
let org: TestOrg;

beforeAll(async () => {
  org = await newOrg();
});

const TITLES = ['Use `npm` *now*', 'C# & F#', 'my_function', '[Beta] Notes', 'a ] b', '<kbd>Ctrl</kbd> shortcuts', '1. Intro', '*'];

type Page = { id: string; title: string; type: string; pages: Page[] };
const titlesOf = (pages: Page[]): string[] => pages.flatMap((p) => [p.title, ...titlesOf(p.pages)]);

describe('titles through Git export and import', () => {
  it('page and group titles with markdown characters read back unchanged; GitBook\'s plain titles print as written', async () => {
    // A GitBook repository with a group whose title has markdown characters (escaped in its heading).
    const name = `titles-${Date.now()}`;
    const files: Record<string, string> = { 'README.md': '# Start\n' };
    const summary = ['# Table of contents', '', '* [Start](README.md)', '', '## Guides & \\*more\\*', ''];
    TITLES.forEach((_, i) => {
      files[`page-${i}.md`] = `# Page ${i}\n\nText ${i}.\n`;
      summary.push(`* [Page ${i}](page-${i}.md)`);
    });
    files['SUMMARY.md'] = `${summary.join('\n')}\n`;
    await createRepo(server, name, files);
    const url = `${server.url}/${name}.git`;
    const space = await createSpace(api, org, { title: 'Titles' });
    expect((await api.request('POST', `/spaces/${space.id}/git/import`, { token: org.admin.token, body: { url, ref: 'refs/heads/main' } })).status).toBe(204);
    expect((await settleGit(api, org.admin.token, space.id)).operations.last.status).toBe('succeeded');
    const group = ((await api.request('GET', `/spaces/${space.id}/content/pages`, { token: org.admin.token })).body.pages as Page[]).find((p) => p.type === 'group')!;
    expect(group.title).toBe('Guides & *more*');

    // The pages get titles with markdown characters through the API...
    const cr = (await api.request('POST', `/spaces/${space.id}/change-requests`, { token: org.admin.token, body: { subject: 'Titles' } })).body;
    const edit = await api.request('POST', `/spaces/${space.id}/change-requests/${cr.id}/content`, {
      token: org.admin.token,
      body: { changes: group.pages.map((page, i) => ({ operation: 'update_page', page: page.id, title: TITLES[i] })) },
    });
    expect(edit.status, JSON.stringify(edit.body)).toBe(200);
    expect((await api.request('POST', `/spaces/${space.id}/change-requests/${cr.id}/merge`, { token: org.admin.token })).status).toBe(200);
    // ...and are exported.
    const exported = await api.request('POST', `/spaces/${space.id}/git/export`, { token: org.admin.token, body: { url, ref: 'refs/heads/main', commitMessage: 'Export' } });
    expect(exported.status, JSON.stringify(exported.body)).toBe(204);
    expect((await settleGit(api, org.admin.token, space.id)).operations.last.status).toBe('succeeded');

    const dir = await cloneBranch(server, name, 'main');
    try {
      const summary = (await filesOf(dir)).get('SUMMARY.md')!.toString();
      // Escaped where markdown would read them otherwise...
      expect(summary).toContain('## Guides & \\*more\\*');
      expect(summary).toContain('* [Use \\`npm\\` \\*now\\*](');
      // ...and written as they are where it would not (GitBook's files print back unchanged).
      expect(summary).toContain('* [C# & F#](');
      expect(summary).toContain('* [my_function](');
      expect(summary).toContain('* [1. Intro](');
      expect(summary).toContain('* [<kbd>Ctrl</kbd> shortcuts](');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }

    // Imported into another space, every title is the one written through the API.
    const copy = await createSpace(api, org, { title: 'Copy' });
    const imported = await api.request('POST', `/spaces/${copy.id}/git/import`, { token: org.admin.token, body: { url, ref: 'refs/heads/main' } });
    expect(imported.status).toBe(204);
    expect((await settleGit(api, org.admin.token, copy.id)).operations.last.status).toBe('succeeded');
    const pages = (await api.request('GET', `/spaces/${copy.id}/content/pages`, { token: org.admin.token })).body.pages as Page[];
    expect(titlesOf(pages)).toEqual(expect.arrayContaining(['Guides & *more*', ...TITLES]));
  });

  it('a title is one line: a line break or another control character is refused, naming the field, and nothing is written', async () => {
    const { space, cr } = await spaceWithChangeRequest(api, org, 'One line');
    const before = (await api.request('GET', `/spaces/${space.id}/change-requests/${cr.id}/content/pages`, { token: org.admin.token })).body;
    for (const title of ['Intro\n* [Injected](evil.md)', 'Tab\there', 'Null\u0000', 'Line\u2028separator']) {
      const res = await api.request('POST', `/spaces/${space.id}/change-requests/${cr.id}/content`, {
        token: org.admin.token,
        body: { changes: [{ operation: 'insert_page', title, document: { markdown: 'x\n' } }] },
      });
      expect(res.status, JSON.stringify(title)).toBe(400);
      expect(res.body.error.message).toBe('changes.0.title: must not contain line breaks or control characters');
    }
    expect((await api.request('GET', `/spaces/${space.id}/change-requests/${cr.id}/content/pages`, { token: org.admin.token })).body).toEqual(before);
    // Space, collection, site, team and organization titles follow the same rule; surrounding whitespace is still trimmed.
    const spaceTitle = await api.request('PATCH', `/spaces/${space.id}`, { token: org.admin.token, body: { title: 'Two\nlines' } });
    expect(spaceTitle.status).toBe(400);
    expect(spaceTitle.body.error.message).toBe('title: must not contain line breaks or control characters');
    const trimmed = await api.request('PATCH', `/spaces/${space.id}`, { token: org.admin.token, body: { title: '  Spaced\n' } });
    expect(trimmed.status).toBe(200);
    expect(trimmed.body.title).toBe('Spaced');
    const collection = await api.request('POST', `/orgs/${org.id}/collections`, { token: org.admin.token, body: { title: 'A\rB' } });
    expect(collection.status).toBe(400);
    expect(collection.body.error.message).toBe('title: must not contain line breaks or control characters');
    const site = await api.request('POST', `/orgs/${org.id}/sites`, { token: org.admin.token, body: { title: 'Docs\u0007' } });
    expect(site.status).toBe(400);
    expect(site.body.error.message).toBe('title: must not contain line breaks or control characters');
    // Teams and the organization's own title too (an ANSI escape would reach terminals through the admin CLI's listings).
    const team = await api.request('PUT', `/orgs/${org.id}/teams`, { token: org.admin.token, body: { title: 'Ops\u001b[31m' } });
    expect(team.status).toBe(400);
    expect(team.body.error.message).toBe('title: must not contain line breaks or control characters');
    const orgTitle = await api.request('PATCH', `/orgs/${org.id}`, { token: org.admin.token, body: { title: 'Acme\nInc' } });
    expect(orgTitle.status).toBe(400);
    expect(orgTitle.body.error.message).toBe('title: must not contain line breaks or control characters');
  });
});
