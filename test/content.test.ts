import { describe, expect, it } from 'vitest';
import { useTestApi, newOrg, type TestOrg } from './support/api.ts';
import { createChangeRequest, createSpace } from './support/factories.ts';
import { pngFile } from './support/png.ts';
import { changeRequestEntity } from '../shared/db/entities/change-request.ts';

const api = useTestApi();

async function spaceWithChangeRequest(org: TestOrg, body: Record<string, unknown> = {}) {
  const space = await createSpace(api, org, body);
  const cr = await createChangeRequest(api, org, space, { subject: 'Edit' });
  return { space, cr };
}

function edit(org: TestOrg, spaceId: string, crId: string, changes: unknown[], token = org.admin.token, query?: { compat: boolean }) {
  return api.request('POST', `/spaces/${spaceId}/change-requests/${crId}/content`, { token, body: { changes }, query });
}

/** A valid 3x2 PNG, base64. */
const tinyPng = () => pngFile(3, 2).toString('base64');

describe('space content reads', () => {
  it('a new space has one empty page; GET content, pages, page and path answer every field', async () => {
    const org = await newOrg();
    const space = await createSpace(api, org, { title: 'S' });
    const content = await api.request('GET', `/spaces/${space.id}/content`, { token: org.admin.token });
    expect(content.status).toBe(200);
    expect(content.body).toMatchObject({
      object: 'revision', id: space.revision, parents: [], files: [], reusableContents: [], variables: {},
      createdAt: expect.any(String), type: 'edits', urls: { app: expect.any(String), published: expect.any(String) }, tags: [],
    });
    expect(content.body.pages).toHaveLength(1);
    const page = content.body.pages[0];
    expect(page).toEqual({
      object: 'page', id: expect.any(String), title: 'Untitled', emoji: '', icon: '', createdAt: expect.any(String), updatedAt: expect.any(String),
      kind: 'sheet', type: 'document', urls: { app: expect.any(String) }, slug: 'untitled', path: 'untitled', description: '', pages: [],
      layout: {
        width: 'default', cover: false, coverSize: 'hero', coverMask: 'none', title: true, description: true, tableOfContents: true,
        outline: true, pagination: true, metadata: true, tags: true, actions: true, anchors: true,
      },
      variables: {}, hidden: false, noIndex: false, noRobotsIndex: false, tags: [],
    });
    const pages = await api.request('GET', `/spaces/${space.id}/content/pages`, { token: org.admin.token });
    expect(pages.body).toEqual({ pages: content.body.pages });
    const one = await api.request('GET', `/spaces/${space.id}/content/page/${page.id}`, { token: org.admin.token });
    expect(one.body.document).toMatchObject({ object: 'document', nodes: [] });
    const byPath = await api.request('GET', `/spaces/${space.id}/content/path/untitled`, { token: org.admin.token });
    expect(byPath.body.id).toBe(page.id);
    expect((await api.request('GET', `/spaces/${space.id}/content/page/nope`, { token: org.admin.token })).status).toBe(404);
    expect((await api.request('GET', `/spaces/${space.id}/content/path/nope`, { token: org.admin.token })).status).toBe(404);
    const other = await newOrg();
    expect((await api.request('GET', `/spaces/${space.id}/content`, { token: other.admin.token })).status).toBe(404);
    expect((await api.request('GET', `/spaces/${space.id}/content`)).status).toBe(401);
    const empty = await createSpace(api, org, { empty: true });
    expect((await api.request('GET', `/spaces/${empty.id}/content/pages`, { token: org.admin.token })).body).toEqual({ pages: [] });
  });
});

describe('relative links in markdown edits', () => {
  it('are read from the folder Git export writes the page in (its tree path)', async () => {
    const org = await newOrg();
    const { space, cr } = await spaceWithChangeRequest(org, { empty: true });
    const first = await edit(org, space.id, cr.id, [{ operation: 'insert_page', title: 'Guides', document: { markdown: 'Guides.\n' } }], org.admin.token, { compat: false });
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    const guides = first.body.changes[0].page.id;
    const made = await edit(org, space.id, cr.id, [
      { operation: 'insert_page', into: guides, title: 'Install', document: { markdown: 'Install it.\n' } },
      { operation: 'insert_page', into: guides, title: 'Topic', document: { markdown: 'Text.\n' } },
      { operation: 'insert_files', files: [{ name: 'shot.png', contentType: 'image/png', base64: tinyPng() }] },
    ], org.admin.token, { compat: false });
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    const [install, topic] = made.body.changes.slice(0, 2).map((c: { page: { id: string } }) => c.page.id);
    const shot = made.body.insertedFiles[0].id;
    // Topic is guides/topic.md in a Git export: `install.md` is its sibling, `../` the root.
    const updated = await edit(org, space.id, cr.id, [
      { operation: 'update_page', page: topic, document: { markdown: 'See [install](install.md), [guides](../guides/README.md) and ![s](../.gitbook/assets/shot.png).\n' } },
      // Guides has subpages: guides/README.md, so `install.md` is in its own folder too.
      { operation: 'update_page', page: guides, document: { markdown: 'Start with [install](install.md).\n' } },
    ]);
    expect(updated.status, JSON.stringify(updated.body)).toBe(200);
    const read = async (id: string) => JSON.stringify((await api.request('GET', `/spaces/${space.id}/change-requests/${cr.id}/content/page/${id}`, { token: org.admin.token })).body.document);
    const topicDoc = await read(topic);
    expect(topicDoc).toContain(`"ref":{"kind":"page","page":"${install}"}`);
    expect(topicDoc).toContain(`"ref":{"kind":"page","page":"${guides}"}`);
    expect(topicDoc).toContain(`"kind":"file","file":"${shot}"`);
    expect(await read(guides)).toContain(`"ref":{"kind":"page","page":"${install}"}`);
  });
});

describe('POST change request content', () => {
  it('inserts nested pages from markdown with frontmatter, resolves in-batch refs, and reads them back as markdown', async () => {
    const org = await newOrg();
    const { space, cr } = await spaceWithChangeRequest(org);
    const res = await edit(org, space.id, cr.id, [
      { operation: 'insert_page', ref: 'guide', document: { markdown: '---\ndescription: How to start\n---\n\n# Getting started\n\nSee [the API](./api.md).\n' } },
      { operation: 'insert_page', ref: 'api', title: 'API', document: { markdown: 'The API page.\n' } },
    ], org.admin.token, { compat: false });
    expect(res.status).toBe(200);
    expect(res.body.changeRequest).toMatchObject({ object: 'change-request', id: cr.id });
    expect(res.body.changes).toEqual([
      { object: 'created_page', ref: 'guide', page: { object: 'page', id: expect.any(String), urls: { location: expect.any(String) } } },
      { object: 'created_page', ref: 'api', page: { object: 'page', id: expect.any(String), urls: { location: expect.any(String) } } },
    ]);
    expect(res.body.insertedFiles).toEqual([]);
    const crContent = await api.request('GET', `/spaces/${space.id}/change-requests/${cr.id}/content`, { token: org.admin.token });
    expect(crContent.status).toBe(200);
    expect(crContent.body.parents).toEqual([cr.revision]);
    const titles = crContent.body.pages.map((p: { title: string }) => p.title);
    expect(titles).toEqual(['Untitled', 'Getting started', 'API']);
    const guide = crContent.body.pages[1];
    expect(guide).toMatchObject({ slug: 'getting-started', path: 'getting-started', description: 'How to start' });
    const apiPage = crContent.body.pages[2];
    const doc = await api.request('GET', `/spaces/${space.id}/change-requests/${cr.id}/content/page/${guide.id}`, { token: org.admin.token });
    expect(JSON.stringify(doc.body.document)).toContain(`"page":"${apiPage.id}"`);
    const md = await api.request('GET', `/spaces/${space.id}/change-requests/${cr.id}/content/page/${apiPage.id}`, { token: org.admin.token, query: { format: 'markdown' } });
    expect(md.status).toBe(200);
    expect(md.body.markdown).toContain('The API page.');
    // Primary content is untouched until the change request is merged.
    const primary = await api.request('GET', `/spaces/${space.id}/content/pages`, { token: org.admin.token });
    expect(primary.body.pages).toHaveLength(1);
    // By number too (spec 4 note b).
    const byNumber = await api.request('GET', `/spaces/${space.id}/change-requests/${cr.number}/content/pages`, { token: org.admin.token });
    expect(byNumber.body.pages).toHaveLength(3);
    // Revisions by id.
    const revision = await api.request('GET', `/spaces/${space.id}/revisions/${crContent.body.id}/pages`, { token: org.admin.token });
    expect(revision.body.pages).toHaveLength(3);
  });

  it('answers the change request by default (compat) and, with compat=false, each affected page once with its address', async () => {
    const org = await newOrg();
    const { space, cr } = await spaceWithChangeRequest(org);
    const compat = await edit(org, space.id, cr.id, [{ operation: 'insert_page', ref: 'a', title: 'A', document: { markdown: 'A.\n' } }]);
    expect(compat.status).toBe(200);
    const stored = await api.request('GET', `/spaces/${space.id}/change-requests/${cr.id}`, { token: org.admin.token });
    expect(compat.body).toEqual(stored.body);
    const [untitled, a] = (await api.request('GET', `/spaces/${space.id}/change-requests/${cr.id}/content/pages`, { token: org.admin.token })).body.pages;

    const res = await edit(org, space.id, cr.id, [
      { operation: 'insert_page', title: 'B', document: { markdown: 'B.\n' } },
      { operation: 'update_page', page: a.id, title: 'A renamed' },
      { operation: 'update_page', page: a.id, emoji: '🎉' },
      { operation: 'delete_page', page: untitled.id },
    ], org.admin.token, { compat: false });
    expect(res.status).toBe(200);
    const after = (await api.request('GET', `/spaces/${space.id}/change-requests/${cr.id}/content/pages`, { token: org.admin.token })).body.pages;
    expect(after.map((p: { title: string }) => p.title)).toEqual(['A renamed', 'B']);
    const location = (id: string) => `${api.url}/v1/spaces/${space.id}/change-requests/${cr.id}/content/page/${id}`;
    const ref = (id: string) => ({ object: 'page', id, urls: { location: location(id) } });
    expect(res.body).toEqual({
      changeRequest: (await api.request('GET', `/spaces/${space.id}/change-requests/${cr.id}`, { token: org.admin.token })).body,
      changes: [
        { object: 'created_page', page: ref(after[1].id) },
        { object: 'updated_page', page: ref(a.id) },
        { object: 'deleted_page', page: untitled.id },
      ],
      insertedFiles: [],
    });
    // Each page address answers the page's stored content.
    const page = await api.request('GET', res.body.changes[1].page.urls.location.slice(`${api.url}/v1`.length), { token: org.admin.token });
    expect(page.body).toMatchObject({ id: a.id, title: 'A renamed', emoji: '🎉' });
    expect((await api.request('POST', `/spaces/${space.id}/change-requests/${cr.id}/content`, { token: org.admin.token, query: { compat: 'maybe' }, body: { changes: [{ operation: 'delete_page', page: a.id }] } })).body.error.message)
      .toMatch(/^compat: /);
  });

  it('updates, moves, deletes and reverts pages', async () => {
    const org = await newOrg();
    const { space, cr } = await spaceWithChangeRequest(org);
    const root = (await api.request('GET', `/spaces/${space.id}/content/pages`, { token: org.admin.token })).body.pages[0];
    const inserted = await edit(org, space.id, cr.id, [
      { operation: 'insert_page', ref: 'a', title: 'A', document: { markdown: 'a\n' } },
      { operation: 'insert_page', ref: 'b', title: 'B', document: { markdown: 'b\n' } },
    ]);
    const [, a, b] = (await api.request('GET', `/spaces/${space.id}/change-requests/${cr.id}/content/pages`, { token: org.admin.token })).body.pages;
    expect(inserted.status).toBe(200);
    const res = await edit(org, space.id, cr.id, [
      { operation: 'update_page', page: a.id, title: 'Alpha', description: 'first', document: { markdown: 'changed\n' } },
      { operation: 'update_page', page: b.id, into: a.id },
      { operation: 'revert_page', page: root.id },
      { operation: 'delete_page', page: root.id },
    ]);
    expect(res.status).toBe(200);
    const pages = (await api.request('GET', `/spaces/${space.id}/change-requests/${cr.id}/content/pages`, { token: org.admin.token })).body.pages;
    expect(pages).toHaveLength(1);
    expect(pages[0]).toMatchObject({ id: a.id, title: 'Alpha', slug: 'a', description: 'first' });
    expect(pages[0].pages.map((p: { id: string; path: string }) => [p.id, p.path])).toEqual([[b.id, 'a/b']]);
    const revert = await edit(org, space.id, cr.id, [{ operation: 'revert_page', page: root.id }]);
    expect(revert.status).toBe(200);
    const after = (await api.request('GET', `/spaces/${space.id}/change-requests/${cr.id}/content/pages`, { token: org.admin.token })).body.pages;
    expect(after.map((p: { id: string }) => p.id)).toEqual([a.id, root.id]);
  });

  it('is atomic: a failing change leaves the change request as it was', async () => {
    const org = await newOrg();
    const { space, cr } = await spaceWithChangeRequest(org);
    const before = await changeRequestEntity.get({ spaceId: space.id, changeRequestId: cr.id }, { consistent: true });
    const res = await edit(org, space.id, cr.id, [
      { operation: 'insert_page', title: 'Fine', document: { markdown: 'ok\n' } },
      { operation: 'delete_page', page: 'missing' },
    ]);
    expect(res.status).toBe(400);
    expect(res.body.error.message).toMatch(/^changes\.1\.page: /);
    expect(await changeRequestEntity.get({ spaceId: space.id, changeRequestId: cr.id }, { consistent: true })).toEqual(before);
    const dup = await edit(org, space.id, cr.id, [{ operation: 'insert_page', title: 'Untitled', document: {} }]);
    expect(dup.status).toBe(409);
    expect(dup.body.error.message).toMatch(/slug/);
    const bad = await edit(org, space.id, cr.id, [{ operation: 'rename_page', page: 'x' }]);
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toMatch(/^changes\.0/);
    const none = await api.request('POST', `/spaces/${space.id}/change-requests/${cr.id}/content`, { token: org.admin.token, body: { changes: [] } });
    expect(none.status).toBe(400);
    expect(none.body.error.message).toMatch(/^changes: /);
  });

  it('needs the edit role and an unlocked space', async () => {
    const org = await newOrg();
    const { space, cr } = await spaceWithChangeRequest(org);
    const reader = await org.member('read');
    expect((await edit(org, space.id, cr.id, [{ operation: 'insert_page', document: {} }], reader.token)).status).toBe(403);
    await api.request('PATCH', `/spaces/${space.id}`, { token: org.admin.token, body: { editMode: 'locked' } });
    const locked = await edit(org, space.id, cr.id, [{ operation: 'insert_page', document: {} }]);
    expect(locked.status).toBe(403);
    expect(locked.body.error.message).toMatch(/locked/);
    const other = await newOrg();
    expect((await edit(other, space.id, cr.id, [{ operation: 'insert_page', document: {} }])).status).toBe(404);
  });

  it('concurrent batches on one change request both land', async () => {
    const org = await newOrg();
    const { space, cr } = await spaceWithChangeRequest(org);
    const results = await Promise.all(['One', 'Two', 'Three'].map((title) =>
      edit(org, space.id, cr.id, [{ operation: 'insert_page', title, document: { markdown: `${title}\n` } }])));
    expect(results.map((r) => r.status)).toEqual([200, 200, 200]);
    const pages = (await api.request('GET', `/spaces/${space.id}/change-requests/${cr.id}/content/pages`, { token: org.admin.token })).body.pages;
    expect(pages.map((p: { title: string }) => p.title).sort()).toEqual(['One', 'Three', 'Two', 'Untitled']);
  });

  it('uploads files to S3 with a working downloadURL, size, type and image dimensions', async () => {
    const org = await newOrg();
    const { space, cr } = await spaceWithChangeRequest(org);
    const png = tinyPng();
    const res = await edit(org, space.id, cr.id, [
      { operation: 'insert_files', files: [{ ref: 'logo', name: 'logo.png', contentType: 'image/png', base64: png }] },
      { operation: 'insert_page', title: 'With image', document: { markdown: '[Logo](./logo)\n' } },
    ], org.admin.token, { compat: false });
    expect(res.status).toBe(200);
    const [file] = res.body.insertedFiles;
    expect(file).toMatchObject({ object: 'file', name: 'logo.png', contentType: 'image/png', size: Buffer.from(png, 'base64').length, dimensions: { width: 3, height: 2 } });
    const download = await fetch(file.downloadURL);
    expect(download.status).toBe(200);
    expect(Buffer.from(await download.arrayBuffer()).toString('base64')).toBe(png);
    const listed = await api.request('GET', `/spaces/${space.id}/change-requests/${cr.id}/content/files`, { token: org.admin.token });
    expect(listed.body.items.map((f: { id: string }) => f.id)).toEqual([file.id]);
    const one = await api.request('GET', `/spaces/${space.id}/change-requests/${cr.id}/content/files/${file.id}`, { token: org.admin.token });
    expect(one.body).toMatchObject({ id: file.id, size: file.size });
    const tooBig = await edit(org, space.id, cr.id, [{ operation: 'insert_files', files: [{ name: 'x.bin', contentType: 'application/octet-stream', base64: Buffer.alloc(1024 * 1024 + 10).toString('base64') }] }]);
    expect(tooBig.status).toBe(400);
    const noSource = await edit(org, space.id, cr.id, [{ operation: 'insert_files', files: [{ name: 'x.bin' }] }]);
    expect(noSource.status).toBe(400);
  });
});

describe('markdown round trip through the API', () => {
  it('a page inserted from canonical markdown reads back as the same markdown', async () => {
    const org = await newOrg();
    const { space, cr } = await spaceWithChangeRequest(org);
    const markdown = [
      '---', 'description: All about setup', 'icon: rocket', '---', '', '# Setup', '',
      'Install it **first**.', '', '{% hint style="warning" %}', 'Back up your data.', '{% endhint %}', '',
      '{% tabs %}', '{% tab title="npm" %}', '```bash', 'npm install', '```', '{% endtab %}', '{% tab title="yarn" %}', '```bash', 'yarn add', '```', '{% endtab %}', '{% endtabs %}', '',
    ].join('\n');
    const res = await edit(org, space.id, cr.id, [{ operation: 'insert_page', document: { markdown } }]);
    expect(res.status).toBe(200);
    const page = (await api.request('GET', `/spaces/${space.id}/change-requests/${cr.id}/content/pages`, { token: org.admin.token })).body.pages[1];
    expect(page).toMatchObject({ title: 'Setup', description: 'All about setup', icon: 'rocket' });
    const back = await api.request('GET', `/spaces/${space.id}/change-requests/${cr.id}/content/page/${page.id}`, { token: org.admin.token, query: { format: 'markdown' } });
    expect(back.body.markdown).toBe(markdown);
  });
});

describe('page query flags', () => {
  it('evaluated=true replaces variables; metadata=false omits git metadata', async () => {
    const org = await newOrg();
    const { space, cr } = await spaceWithChangeRequest(org);
    await edit(org, space.id, cr.id, [{ operation: 'insert_page', title: 'Vars', document: { markdown: 'Version {{ space.vars.version }} here.\n' } }]);
    const page = (await api.request('GET', `/spaces/${space.id}/change-requests/${cr.id}/content/pages`, { token: org.admin.token })).body.pages[1];
    const raw = await api.request('GET', `/spaces/${space.id}/change-requests/${cr.id}/content/page/${page.id}`, { token: org.admin.token, query: { format: 'markdown' } });
    expect(raw.body.markdown).toContain('{{ space.vars.version }}');
    const bad = await api.request('GET', `/spaces/${space.id}/content/page/${page.id}`, { token: org.admin.token, query: { evaluated: 'maybe' } });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toMatch(/^evaluated: /);
  });
});
