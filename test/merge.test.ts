import { describe, expect, it } from 'vitest';
import { useTestApi, newOrg, type TestOrg } from './support/api.ts';
import { createChangeRequest, createSpace } from './support/factories.ts';
import { spaceEntity } from '../shared/db/entities/space.ts';

const api = useTestApi();

interface Fixture {
  org: TestOrg;
  spaceId: string;
  pageId: string;
}

/** A space whose first page holds three paragraphs (merged through a first change request). */
async function fixture(): Promise<Fixture> {
  const org = await newOrg();
  const space = await createSpace(api, org);
  const pageId = (await api.request('GET', `/spaces/${space.id}/content/pages`, { token: org.admin.token })).body.pages[0].id;
  const cr = await createChangeRequest(api, org, space.id);
  await edit(org, space.id, cr.id, [{ operation: 'update_page', page: pageId, document: { markdown: 'One.\n\nTwo.\n\nThree.\n' } }]);
  expect((await api.request('POST', `/spaces/${space.id}/change-requests/${cr.id}/merge`, { token: org.admin.token })).status).toBe(200);
  return { org, spaceId: space.id, pageId };
}

async function edit(org: TestOrg, spaceId: string, crId: string, changes: unknown[]) {
  const res = await api.request('POST', `/spaces/${spaceId}/change-requests/${crId}/content`, { token: org.admin.token, body: { changes } });
  expect(res.status).toBe(200);
  return res.body;
}

async function primaryMarkdown(f: Fixture, pageId = f.pageId): Promise<string> {
  const res = await api.request('GET', `/spaces/${f.spaceId}/content/page/${pageId}`, { token: f.org.admin.token, query: { format: 'markdown' } });
  return res.body.markdown;
}

async function primaryTitles(f: Fixture): Promise<string[]> {
  return (await api.request('GET', `/spaces/${f.spaceId}/content/pages`, { token: f.org.admin.token })).body.pages.map((p: { title: string }) => p.title);
}

describe('POST .../merge', () => {
  it('merges a change request into primary content: new revision with both parents, status merged, counters', async () => {
    const f = await fixture();
    const before = (await api.request('GET', `/spaces/${f.spaceId}`, { token: f.org.admin.token })).body;
    const cr = await createChangeRequest(api, f.org, f.spaceId);
    await edit(f.org, f.spaceId, cr.id, [{ operation: 'insert_page', title: 'Added', document: { markdown: 'New page.\n' } }]);
    const crRevision = (await api.request('GET', `/spaces/${f.spaceId}/change-requests/${cr.id}`, { token: f.org.admin.token })).body.revision;
    const res = await api.request('POST', `/spaces/${f.spaceId}/change-requests/${cr.id}/merge`, { token: f.org.admin.token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ revision: expect.any(String), result: 'merge' });
    const space = (await api.request('GET', `/spaces/${f.spaceId}`, { token: f.org.admin.token })).body;
    expect(space.revision).toBe(res.body.revision);
    expect(space.changeRequestsDraft).toBe(before.changeRequestsDraft);
    const content = (await api.request('GET', `/spaces/${f.spaceId}/content`, { token: f.org.admin.token })).body;
    expect(content.parents).toEqual([before.revision, crRevision]);
    expect(content.pages.map((p: { title: string }) => p.title)).toEqual(['Untitled', 'Added']);
    const merged = (await api.request('GET', `/spaces/${f.spaceId}/change-requests/${cr.id}`, { token: f.org.admin.token })).body;
    expect(merged).toMatchObject({ status: 'merged', revisionMerged: res.body.revision, outdated: false });
    const again = await api.request('POST', `/spaces/${f.spaceId}/change-requests/${cr.id}/merge`, { token: f.org.admin.token });
    expect(again.status).toBe(409);
  });

  it('combines page-level and block-level edits made on both sides', async () => {
    const f = await fixture();
    const first = await createChangeRequest(api, f.org, f.spaceId);
    const second = await createChangeRequest(api, f.org, f.spaceId);
    await edit(f.org, f.spaceId, first.id, [{ operation: 'update_page', page: f.pageId, document: { markdown: 'One, edited first.\n\nTwo.\n\nThree.\n' } }]);
    await edit(f.org, f.spaceId, second.id, [
      { operation: 'update_page', page: f.pageId, document: { markdown: 'One.\n\nTwo.\n\nThree, edited second.\n' } },
      { operation: 'insert_page', title: 'From second', document: { markdown: 'Second page.\n' } },
    ]);
    expect((await api.request('POST', `/spaces/${f.spaceId}/change-requests/${first.id}/merge`, { token: f.org.admin.token })).status).toBe(200);
    const outdated = (await api.request('GET', `/spaces/${f.spaceId}/change-requests/${second.id}`, { token: f.org.admin.token })).body;
    expect(outdated.outdated).toBe(true);
    const res = await api.request('POST', `/spaces/${f.spaceId}/change-requests/${second.id}/merge`, { token: f.org.admin.token });
    expect(res.status).toBe(200);
    expect(await primaryMarkdown(f)).toContain('One, edited first.\n\nTwo.\n\nThree, edited second.');
    expect(await primaryTitles(f)).toEqual(['Untitled', 'From second']);
  });

  it('reports true conflicts with the pages and blocks, and writes nothing', async () => {
    const f = await fixture();
    const first = await createChangeRequest(api, f.org, f.spaceId);
    const second = await createChangeRequest(api, f.org, f.spaceId);
    await edit(f.org, f.spaceId, first.id, [{ operation: 'update_page', page: f.pageId, document: { markdown: 'One.\n\nTwo by first.\n\nThree.\n' } }]);
    await edit(f.org, f.spaceId, second.id, [{ operation: 'update_page', page: f.pageId, document: { markdown: 'One.\n\nTwo by second.\n\nThree.\n' } }]);
    expect((await api.request('POST', `/spaces/${f.spaceId}/change-requests/${first.id}/merge`, { token: f.org.admin.token })).status).toBe(200);
    const spaceBefore = await spaceEntity.get({ spaceId: f.spaceId }, { consistent: true });
    const res = await api.request('POST', `/spaces/${f.spaceId}/change-requests/${second.id}/merge`, { token: f.org.admin.token });
    expect(res.status).toBe(409);
    expect(res.body.error).toMatchObject({ code: 409, message: expect.stringMatching(/conflict/) });
    expect(res.body.error.conflicts).toEqual([expect.objectContaining({
      page: f.pageId, title: 'Untitled', blocks: { ours: [expect.any(String)], theirs: [expect.any(String)], base: [expect.any(String)] },
    })]);
    expect(await spaceEntity.get({ spaceId: f.spaceId }, { consistent: true })).toEqual(spaceBefore);
    expect((await api.request('GET', `/spaces/${f.spaceId}/change-requests/${second.id}`, { token: f.org.admin.token })).body.status).toBe('draft');
    expect(await primaryMarkdown(f)).toContain('Two by first.');
  });

  it('combines edits of neighbouring blocks; different blocks inserted at one place are a conflict', async () => {
    const f = await fixture();
    const first = await createChangeRequest(api, f.org, f.spaceId);
    const second = await createChangeRequest(api, f.org, f.spaceId);
    await edit(f.org, f.spaceId, first.id, [{ operation: 'update_page', page: f.pageId, document: { markdown: 'One by first.\n\nTwo.\n\nThree.\n' } }]);
    await edit(f.org, f.spaceId, second.id, [{ operation: 'update_page', page: f.pageId, document: { markdown: 'One.\n\nTwo by second.\n\nThree.\n\nFour by second.\n' } }]);
    expect((await api.request('POST', `/spaces/${f.spaceId}/change-requests/${first.id}/merge`, { token: f.org.admin.token })).status).toBe(200);
    const res = await api.request('POST', `/spaces/${f.spaceId}/change-requests/${second.id}/merge`, { token: f.org.admin.token });
    expect(res.status).toBe(200);
    expect(await primaryMarkdown(f)).toBe('One by first.\n\nTwo by second.\n\nThree.\n\nFour by second.\n');
    const content = (await api.request('GET', `/spaces/${f.spaceId}/content`, { token: f.org.admin.token })).body;
    expect(content.id).toBe(res.body.revision);

    // Two writers both append a paragraph: no order to choose between them.
    const third = await createChangeRequest(api, f.org, f.spaceId);
    const fourth = await createChangeRequest(api, f.org, f.spaceId);
    await edit(f.org, f.spaceId, third.id, [{ operation: 'update_page', page: f.pageId, document: { markdown: 'One by first.\n\nTwo by second.\n\nThree.\n\nFour by second.\n\nFive by third.\n' } }]);
    await edit(f.org, f.spaceId, fourth.id, [{ operation: 'update_page', page: f.pageId, document: { markdown: 'One by first.\n\nTwo by second.\n\nThree.\n\nFour by second.\n\nFive by fourth.\n' } }]);
    expect((await api.request('POST', `/spaces/${f.spaceId}/change-requests/${third.id}/merge`, { token: f.org.admin.token })).status).toBe(200);
    const clash = await api.request('POST', `/spaces/${f.spaceId}/change-requests/${fourth.id}/merge`, { token: f.org.admin.token });
    expect(clash.status).toBe(409);
    expect(clash.body.error.conflicts).toEqual([expect.objectContaining({
      page: f.pageId, blocks: { ours: [expect.any(String)], base: [], theirs: [expect.any(String)] },
    })]);
    expect(await primaryMarkdown(f)).toBe('One by first.\n\nTwo by second.\n\nThree.\n\nFour by second.\n\nFive by third.\n');
  });

  it('pages brought under one parent with one slug are a conflict naming both, and nothing is written', async () => {
    const f = await fixture();
    const first = await createChangeRequest(api, f.org, f.spaceId);
    const second = await createChangeRequest(api, f.org, f.spaceId);
    await edit(f.org, f.spaceId, first.id, [{ operation: 'insert_page', title: 'FAQ', document: { markdown: 'Asked by first.\n' } }]);
    await edit(f.org, f.spaceId, second.id, [{ operation: 'insert_page', title: 'FAQ', document: { markdown: 'Asked by second.\n' } }]);
    expect((await api.request('POST', `/spaces/${f.spaceId}/change-requests/${first.id}/merge`, { token: f.org.admin.token })).status).toBe(200);
    const [firstFaq] = (await api.request('GET', `/spaces/${f.spaceId}/content/pages`, { token: f.org.admin.token })).body.pages.filter((p: { title: string }) => p.title === 'FAQ');
    const [secondFaq] = (await api.request('GET', `/spaces/${f.spaceId}/change-requests/${second.id}/content/pages`, { token: f.org.admin.token })).body.pages.filter((p: { title: string }) => p.title === 'FAQ');
    const spaceBefore = await spaceEntity.get({ spaceId: f.spaceId }, { consistent: true });
    const res = await api.request('POST', `/spaces/${f.spaceId}/change-requests/${second.id}/merge`, { token: f.org.admin.token });
    expect(res.status).toBe(409);
    expect(res.body.error.conflicts).toEqual(expect.arrayContaining([firstFaq, secondFaq].map((page) => ({
      page: page.id, title: 'FAQ', reason: 'sibling pages have the same slug "faq"', fields: ['slug'],
    }))));
    expect(res.body.error.conflicts).toHaveLength(2);
    expect(await spaceEntity.get({ spaceId: f.spaceId }, { consistent: true })).toEqual(spaceBefore);
    // The same from the other direction (update), and a rename in the change request resolves it.
    expect((await api.request('POST', `/spaces/${f.spaceId}/change-requests/${second.id}/update`, { token: f.org.admin.token })).status).toBe(409);
    await edit(f.org, f.spaceId, second.id, [{ operation: 'update_page', page: secondFaq.id, slug: 'faq-second' }]);
    expect((await api.request('POST', `/spaces/${f.spaceId}/change-requests/${second.id}/merge`, { token: f.org.admin.token })).status).toBe(200);
    const paths = (await api.request('GET', `/spaces/${f.spaceId}/content/pages`, { token: f.org.admin.token })).body.pages.map((p: { path: string }) => p.path);
    expect(paths).toEqual(['untitled', 'faq', 'faq-second']);
  });

  it('keeps an edit of a rich document block that kept its key, and reports both sides editing it', async () => {
    const f = await fixture();
    const para = (key: string, text: string) => ({ object: 'block', type: 'paragraph', key, nodes: [{ object: 'text', leaves: [{ object: 'leaf', text, marks: [] }] }] });
    const rich = (...nodes: unknown[]) => ({ document: { object: 'document', data: {}, nodes } });
    const base = await createChangeRequest(api, f.org, f.spaceId);
    await edit(f.org, f.spaceId, base.id, [{ operation: 'update_page', page: f.pageId, document: rich(para('k1', 'One.'), para('k2', 'Two.')) }]);
    expect((await api.request('POST', `/spaces/${f.spaceId}/change-requests/${base.id}/merge`, { token: f.org.admin.token })).status).toBe(200);
    // An editor changes a block's text in place: the key stays.
    const first = await createChangeRequest(api, f.org, f.spaceId);
    const second = await createChangeRequest(api, f.org, f.spaceId);
    await edit(f.org, f.spaceId, first.id, [{ operation: 'update_page', page: f.pageId, document: rich(para('k1', 'One.'), para('k2', 'Two.'), para('k3', 'Three by first.')) }]);
    await edit(f.org, f.spaceId, second.id, [{ operation: 'update_page', page: f.pageId, document: rich(para('k1', 'One, edited by second.'), para('k2', 'Two.')) }]);
    expect((await api.request('POST', `/spaces/${f.spaceId}/change-requests/${first.id}/merge`, { token: f.org.admin.token })).status).toBe(200);
    const res = await api.request('POST', `/spaces/${f.spaceId}/change-requests/${second.id}/merge`, { token: f.org.admin.token });
    expect(res.status).toBe(200);
    expect(await primaryMarkdown(f)).toBe('# Untitled\n\nOne, edited by second.\n\nTwo.\n\nThree by first.\n');
    const stored = (await api.request('GET', `/spaces/${f.spaceId}/content/page/${f.pageId}`, { token: f.org.admin.token })).body.document;
    expect(stored.nodes.map((n: { key: string }) => n.key)).toEqual(['k1', 'k2', 'k3']);

    // The same keyed block edited differently on both sides: a conflict naming it.
    const third = await createChangeRequest(api, f.org, f.spaceId);
    const fourth = await createChangeRequest(api, f.org, f.spaceId);
    await edit(f.org, f.spaceId, third.id, [{ operation: 'update_page', page: f.pageId, document: rich(para('k1', 'One, edited by second.'), para('k2', 'Two by third.'), para('k3', 'Three by first.')) }]);
    await edit(f.org, f.spaceId, fourth.id, [{ operation: 'update_page', page: f.pageId, document: rich(para('k1', 'One, edited by second.'), para('k2', 'Two by fourth.'), para('k3', 'Three by first.')) }]);
    expect((await api.request('POST', `/spaces/${f.spaceId}/change-requests/${third.id}/merge`, { token: f.org.admin.token })).status).toBe(200);
    const clash = await api.request('POST', `/spaces/${f.spaceId}/change-requests/${fourth.id}/merge`, { token: f.org.admin.token });
    expect(clash.status).toBe(409);
    expect(clash.body.error.conflicts).toEqual([expect.objectContaining({ page: f.pageId, blocks: { ours: ['k2'], base: ['k2'], theirs: ['k2'] } })]);
    expect(await primaryMarkdown(f)).toBe('# Untitled\n\nOne, edited by second.\n\nTwo by third.\n\nThree by first.\n');
  });

  it('a page deleted on one side and edited on the other is a conflict', async () => {
    const f = await fixture();
    const first = await createChangeRequest(api, f.org, f.spaceId);
    const second = await createChangeRequest(api, f.org, f.spaceId);
    await edit(f.org, f.spaceId, first.id, [{ operation: 'delete_page', page: f.pageId }]);
    await edit(f.org, f.spaceId, second.id, [{ operation: 'update_page', page: f.pageId, title: 'Renamed' }]);
    expect((await api.request('POST', `/spaces/${f.spaceId}/change-requests/${first.id}/merge`, { token: f.org.admin.token })).status).toBe(200);
    const res = await api.request('POST', `/spaces/${f.spaceId}/change-requests/${second.id}/merge`, { token: f.org.admin.token });
    expect(res.status).toBe(409);
    expect(res.body.error.conflicts[0]).toMatchObject({ page: f.pageId, reason: expect.stringMatching(/deleted/) });
  });

  it('concurrent merges of independent change requests lose no page', async () => {
    const f = await fixture();
    const crs = [];
    for (const title of ['A', 'B', 'C']) {
      const cr = await createChangeRequest(api, f.org, f.spaceId);
      await edit(f.org, f.spaceId, cr.id, [{ operation: 'insert_page', title, document: { markdown: `${title}\n` } }]);
      crs.push(cr);
    }
    const results = await Promise.all(crs.map((cr) => api.request('POST', `/spaces/${f.spaceId}/change-requests/${cr.id}/merge`, { token: f.org.admin.token })));
    expect(results.map((r) => r.status)).toEqual([200, 200, 200]);
    expect((await primaryTitles(f)).sort()).toEqual(['A', 'B', 'C', 'Untitled']);
  });

  it('a content edit racing the merge is in the merged content or refused (409), never answered 200 and lost', async () => {
    const f = await fixture();
    const outcomes: string[] = [];
    for (let i = 0; i < 6; i++) {
      const cr = await createChangeRequest(api, f.org, f.spaceId);
      await edit(f.org, f.spaceId, cr.id, [{ operation: 'insert_page', title: `Early ${i}`, document: { markdown: 'x\n' } }]);
      // A long page keeps the edit busy (parse, blobs) while the merge runs.
      const markdown = Array.from({ length: 400 }, (_, k) => `Paragraph ${k} of late edit ${i}.`).join('\n\n');
      const [late, merged] = await Promise.all([
        api.request('POST', `/spaces/${f.spaceId}/change-requests/${cr.id}/content`, {
          token: f.org.admin.token, body: { changes: [{ operation: 'insert_page', title: `Late ${i}`, document: { markdown } }] },
        }),
        new Promise((resolve) => setTimeout(resolve, 20 + i * 20)).then(() => api.request('POST', `/spaces/${f.spaceId}/change-requests/${cr.id}/merge`, { token: f.org.admin.token })),
      ]);
      expect(merged.status).toBe(200);
      const inPrimary = (await primaryTitles(f)).includes(`Late ${i}`);
      outcomes.push(`${late.status}:${inPrimary}`);
      if (late.status === 409) expect(late.body.error.message).toBe('The change request is merged; its content cannot change');
    }
    expect(outcomes.filter((o) => o !== '200:true' && o !== '409:false')).toEqual([]);
  }, 120_000);

  it('needs the edit role; 404 across organizations; 401 without a token', async () => {
    const f = await fixture();
    const cr = await createChangeRequest(api, f.org, f.spaceId);
    const reader = await f.org.member('read');
    expect((await api.request('POST', `/spaces/${f.spaceId}/change-requests/${cr.id}/merge`, { token: reader.token })).status).toBe(403);
    const other = await newOrg();
    expect((await api.request('POST', `/spaces/${f.spaceId}/change-requests/${cr.id}/merge`, { token: other.admin.token })).status).toBe(404);
    expect((await api.request('POST', `/spaces/${f.spaceId}/change-requests/${cr.id}/merge`)).status).toBe(401);
    expect((await api.request('POST', `/spaces/${f.spaceId}/change-requests/nope/merge`, { token: f.org.admin.token })).status).toBe(404);
  });
});

describe('POST .../update', () => {
  it('pulls primary content into an outdated change request', async () => {
    const f = await fixture();
    const first = await createChangeRequest(api, f.org, f.spaceId);
    const second = await createChangeRequest(api, f.org, f.spaceId);
    await edit(f.org, f.spaceId, first.id, [{ operation: 'insert_page', title: 'Merged first', document: { markdown: 'x\n' } }]);
    await edit(f.org, f.spaceId, second.id, [{ operation: 'update_page', page: f.pageId, document: { markdown: 'One.\n\nTwo.\n\nThree and more.\n' } }]);
    await api.request('POST', `/spaces/${f.spaceId}/change-requests/${first.id}/merge`, { token: f.org.admin.token });
    const res = await api.request('POST', `/spaces/${f.spaceId}/change-requests/${second.id}/update`, { token: f.org.admin.token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ revision: expect.any(String), result: 'update' });
    const cr = (await api.request('GET', `/spaces/${f.spaceId}/change-requests/${second.id}`, { token: f.org.admin.token })).body;
    const space = (await api.request('GET', `/spaces/${f.spaceId}`, { token: f.org.admin.token })).body;
    expect(cr).toMatchObject({ revision: res.body.revision, revisionMergedAncestor: space.revision, outdated: false });
    const pages = (await api.request('GET', `/spaces/${f.spaceId}/change-requests/${second.id}/content/pages`, { token: f.org.admin.token })).body.pages;
    expect(pages.map((p: { title: string }) => p.title)).toEqual(['Untitled', 'Merged first']);
    // Up to date: update changes nothing.
    const again = await api.request('POST', `/spaces/${f.spaceId}/change-requests/${second.id}/update`, { token: f.org.admin.token });
    expect(again.body.revision).toBe(res.body.revision);
    // And it now merges cleanly.
    expect((await api.request('POST', `/spaces/${f.spaceId}/change-requests/${second.id}/merge`, { token: f.org.admin.token })).status).toBe(200);
    expect(await primaryMarkdown(f)).toContain('Three and more.');
  });
});
