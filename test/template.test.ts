import { describe, expect, it } from 'vitest';
import { useTestApi, newOrg, type TestOrg } from './support/api.ts';
import { createSpace } from './support/factories.ts';

const api = useTestApi();

function apply(org: TestOrg, spaceId: string, body: unknown, token: string | null = org.admin.token) {
  return api.request('POST', `/spaces/${spaceId}/content/template`, { token, body });
}

async function primaryPages(org: TestOrg, spaceId: string) {
  return (await api.request('GET', `/spaces/${spaceId}/content/pages`, { token: org.admin.token })).body.pages as { id: string; title: string; slug: string; description: string }[];
}

describe('POST /spaces/{spaceId}/content/template', () => {
  it('applies a template to the primary content as a new revision, replacing the placeholder page of a new space', async () => {
    const org = await newOrg();
    const space = await createSpace(api, org);
    const res = await apply(org, space.id, { id: 'getting-started' });
    expect(res.status).toBe(201);
    expect(res.body).toBeUndefined();
    const pages = await primaryPages(org, space.id);
    expect(pages.map((p) => [p.title, p.slug])).toEqual([['Introduction', 'introduction'], ['Quickstart', 'quickstart']]);
    expect(pages[0]!.description).toMatch(/documentation/);
    const content = (await api.request('GET', `/spaces/${space.id}/content`, { token: org.admin.token })).body;
    expect(content.parents).toEqual([space.revision]);
    expect((await api.request('GET', `/spaces/${space.id}`, { token: org.admin.token })).body.revision).toBe(content.id);
    // Links between the template's pages resolve to the inserted pages.
    const intro = await api.request('GET', `/spaces/${space.id}/content/page/${pages[0]!.id}`, { token: org.admin.token });
    expect(JSON.stringify(intro.body.document)).toContain(`"page":"${pages[1]!.id}"`);
    expect(JSON.stringify(intro.body.document)).toContain('"type":"hint"');
    const quickstart = await api.request('GET', `/spaces/${space.id}/content/page/${pages[1]!.id}`, { token: org.admin.token, query: { format: 'markdown' } });
    expect(quickstart.body.markdown).toContain('npm install my-product');

    // On content that is not a placeholder, the pages go after the existing ones;
    // the usual rules hold: the same template again collides on slugs.
    expect((await apply(org, space.id, { id: 'changelog' })).status).toBe(201);
    expect((await primaryPages(org, space.id)).map((p) => p.title)).toEqual(['Introduction', 'Quickstart', 'Changelog']);
    const again = await apply(org, space.id, { id: 'getting-started' });
    expect(again.status).toBe(409);
    expect(again.body.error.message).toMatch(/slug/);
    expect(await primaryPages(org, space.id)).toHaveLength(3);
  });

  it('offers api-reference, product-docs and changelog, on empty spaces too', async () => {
    const org = await newOrg();
    for (const [id, titles] of [
      ['api-reference', ['Overview', 'Authentication', 'Endpoints']],
      ['product-docs', ['Overview', 'Features', 'FAQ']],
      ['changelog', ['Changelog']],
    ] as const) {
      const space = await createSpace(api, org, { empty: true });
      expect((await apply(org, space.id, { id })).status, id).toBe(201);
      expect((await primaryPages(org, space.id)).map((p) => p.title), id).toEqual(titles);
    }
  });

  it('links the content refs it is given (url, page) and refuses unknown or missing ones', async () => {
    const org = await newOrg();
    const space = await createSpace(api, org);
    const [placeholder] = await primaryPages(org, space.id);
    const res = await apply(org, space.id, {
      id: 'api-reference',
      params: { contentRefs: { spec: { kind: 'url', url: 'https://example.com/openapi.yaml' } } },
    });
    expect(res.status).toBe(201);
    const endpoints = (await primaryPages(org, space.id)).find((p) => p.title === 'Endpoints')!;
    const md = await api.request('GET', `/spaces/${space.id}/content/page/${endpoints.id}`, { token: org.admin.token, query: { format: 'markdown' } });
    expect(md.body.markdown).toContain('https://example.com/openapi.yaml');

    const other = await createSpace(api, org);
    const [page] = await primaryPages(org, other.id);
    // A page of another space's content is refused; a page of this one is linked (and, being
    // linked to, the placeholder page stays).
    const bad = await apply(org, other.id, { id: 'product-docs', params: { contentRefs: { website: { kind: 'page', page: placeholder!.id } } } });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toMatch(/^params\.contentRefs\.website\.page: /);
    const linked = await apply(org, other.id, { id: 'product-docs', params: { contentRefs: { website: { kind: 'page', page: page!.id } } } });
    expect(linked.status).toBe(201);
    const otherPages = await primaryPages(org, other.id);
    expect(otherPages.map((p) => p.title)).toEqual(['Untitled', 'Overview', 'Features', 'FAQ']);
    const overview = otherPages.find((p) => p.title === 'Overview')!;
    const doc = await api.request('GET', `/spaces/${other.id}/content/page/${overview.id}`, { token: org.admin.token });
    expect(JSON.stringify(doc.body.document)).toContain(`"page":"${page!.id}"`);

    const unknown = await apply(org, other.id, { id: 'changelog', params: { contentRefs: { nope: { kind: 'url', url: 'https://example.com' } } } });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.message).toMatch(/^params\.contentRefs\.nope: .*releases/);
    const kind = await apply(org, other.id, { id: 'changelog', params: { contentRefs: { releases: { kind: 'space', space: other.id } } } });
    expect(kind.status).toBe(400);
    expect(kind.body.error.message).toMatch(/^params\.contentRefs\.releases/);
  });

  it('applies to a change request only when changeRequestId is given', async () => {
    const org = await newOrg();
    const space = await createSpace(api, org);
    const cr = (await api.request('POST', `/spaces/${space.id}/change-requests`, { token: org.admin.token, body: { subject: 'Template' } })).body;
    const editor = await org.member('edit');
    const res = await apply(org, space.id, { id: 'product-docs', changeRequestId: cr.id }, editor.token);
    expect(res.status).toBe(201);
    const crPages = (await api.request('GET', `/spaces/${space.id}/change-requests/${cr.id}/content/pages`, { token: org.admin.token })).body.pages;
    expect(crPages.map((p: { title: string }) => p.title)).toEqual(['Overview', 'Features', 'FAQ']);
    expect((await primaryPages(org, space.id)).map((p) => p.title)).toEqual(['Untitled']);
    const after = (await api.request('GET', `/spaces/${space.id}/change-requests/${cr.id}`, { token: org.admin.token })).body;
    const content = (await api.request('GET', `/spaces/${space.id}/change-requests/${cr.id}/content`, { token: org.admin.token })).body;
    expect(after.revision).toBe(content.id);
    expect(content.parents).toEqual([cr.revision]);
    // By number too, on top of the previous revision.
    expect((await apply(org, space.id, { id: 'changelog', changeRequestId: String(cr.number) })).status).toBe(201);
    const pages = (await api.request('GET', `/spaces/${space.id}/change-requests/${cr.id}/content/pages`, { token: org.admin.token })).body.pages;
    expect(pages.map((p: { title: string }) => p.title)).toEqual(['Overview', 'Features', 'FAQ', 'Changelog']);
    expect((await apply(org, space.id, { id: 'changelog', changeRequestId: 'missing' })).status).toBe(404);
    await api.request('PATCH', `/spaces/${space.id}/change-requests/${cr.id}`, { token: org.admin.token, body: { status: 'archived' } });
    expect((await apply(org, space.id, { id: 'api-reference', changeRequestId: cr.id })).status).toBe(409);
  });

  it('validates the body: unknown template ids are 400', async () => {
    const org = await newOrg();
    const space = await createSpace(api, org);
    const unknown = await apply(org, space.id, { id: 'nope' });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.message).toMatch(/^id: must be one of getting-started, api-reference, product-docs, changelog/);
    expect((await apply(org, space.id, {})).status).toBe(400);
    const extra = await apply(org, space.id, { id: 'changelog', other: true });
    expect(extra.status).toBe(400);
    expect(extra.body.error.message).toMatch(/^other: /);
    expect(await primaryPages(org, space.id)).toHaveLength(1);
  });

  it('needs the edit role and an unlocked space; 404 for other organizations, 401 without a token', async () => {
    const org = await newOrg();
    const space = await createSpace(api, org);
    const cr = (await api.request('POST', `/spaces/${space.id}/change-requests`, { token: org.admin.token, body: {} })).body;
    const reader = await org.member('read');
    expect((await apply(org, space.id, { id: 'changelog' }, reader.token)).status).toBe(403);
    expect((await apply(org, space.id, { id: 'changelog', changeRequestId: cr.id }, reader.token)).status).toBe(403);
    expect((await apply(org, space.id, { id: 'changelog' }, null)).status).toBe(401);
    const other = await newOrg();
    expect((await apply(other, space.id, { id: 'changelog' })).status).toBe(404);
    expect((await api.request('PATCH', `/spaces/${space.id}`, { token: org.admin.token, body: { editMode: 'locked' } })).status).toBe(200);
    const locked = await apply(org, space.id, { id: 'changelog' });
    expect(locked.status).toBe(403);
    expect(locked.body.error.message).toMatch(/locked/);
    expect((await apply(org, space.id, { id: 'changelog', changeRequestId: cr.id })).status).toBe(403);
    expect((await primaryPages(org, space.id)).map((p) => p.title)).toEqual(['Untitled']);
  });

  it('concurrent applications to the primary content both land (neither revision is lost)', async () => {
    const org = await newOrg();
    const space = await createSpace(api, org, { empty: true });
    const results = await Promise.all([
      apply(org, space.id, { id: 'changelog' }),
      apply(org, space.id, { id: 'getting-started' }),
    ]);
    expect(results.map((r) => r.status)).toEqual([201, 201]);
    expect((await primaryPages(org, space.id)).map((p) => p.title).sort()).toEqual(['Changelog', 'Introduction', 'Quickstart']);
    const content = (await api.request('GET', `/spaces/${space.id}/content`, { token: org.admin.token })).body;
    const parent = (await api.request('GET', `/spaces/${space.id}/revisions/${content.parents[0]}`, { token: org.admin.token })).body;
    expect(parent.parents).toEqual([space.revision]);
  });
});
