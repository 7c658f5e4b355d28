import { beforeAll, describe, expect, it } from 'vitest';
import { officialClient } from './support/official-client.ts';
import { useTestApi, newOrg, type TestApi, type TestOrg } from './support/api.ts';
import { checkPublicContract } from './support/public-contract.ts';
import { pagesByTitle, spaceWithChangeRequest } from './support/published-content.ts';
import { GUIDE_MARKDOWN, publishedSite } from './support/reader-site.ts';
import { getRecord } from '../shared/db/operations.ts';
import { siteEntity } from '../shared/db/entities/site.ts';
import { translationEntity } from '../shared/db/entities/translation.ts';
import { pollOnce } from '../shared/local/queue-poller.ts';

/**
 * The public interface's operations beyond the spec: unpublishSite, searchSiteContent,
 * page backlinks (space and change request) and page meta links (space, change request,
 * revision), over HTTP and through the official client.
 */
const api = useTestApi();


/** An answer of the official client must be one the public description documents. */
function expectPublicContract(method: string, path: string, res: { status: number; data: unknown }) {
  const result = checkPublicContract(method, path, res.status, res.data);
  expect(result.template, `${method} ${path} is in the public description`).toBeDefined();
  expect(result.documentedStatuses).toContain(String(res.status));
  expect(result.errors).toEqual([]);
}

type PageInput = { markdown: string; hidden?: boolean; noIndex?: boolean };

/** One batch of content changes on a change request; answers its new revision (either answer shape of the public interface). */
async function editContent(api: TestApi, org: TestOrg, spaceId: string, crId: string, changes: unknown[]): Promise<string> {
  const res = await api.request('POST', `/spaces/${spaceId}/change-requests/${crId}/content`, { token: org.admin.token, body: { changes } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return (res.body.changeRequest ?? res.body).revision as string;
}

/** A space whose primary content (merged through a change request) has these pages only. */
async function mergedSpace(org: TestOrg, title: string, pages: PageInput[]) {
  const { space, cr } = await spaceWithChangeRequest(api, org, title);
  const existing = await pagesByTitle(api, org, space.id, cr.id);
  await editContent(api, org, space.id, cr.id, [
    ...pages.map(({ markdown, ...metadata }) => ({ operation: 'insert_page', ...metadata, document: { markdown } })),
    ...Object.values(existing).map((p) => ({ operation: 'delete_page', page: p.id })),
  ]);
  const merged = await api.request('POST', `/spaces/${space.id}/change-requests/${cr.id}/merge`, { token: org.admin.token });
  expect(merged.status, JSON.stringify(merged.body)).toBe(200);
  const primary = await api.request('GET', `/spaces/${space.id}`, { token: org.admin.token });
  return { id: space.id as string, revision: primary.body.revision as string };
}

/** Pages of a space's primary content by title. */
async function primaryPages(org: TestOrg, spaceId: string) {
  const res = await api.request('GET', `/spaces/${spaceId}/content/pages`, { token: org.admin.token });
  expect(res.status).toBe(200);
  const out: Record<string, string> = {};
  const walk = (pages: { id: string; title: string; pages: unknown[] }[]) => pages.forEach((p) => { out[p.title] = p.id; walk(p.pages as typeof pages); });
  walk(res.body.pages);
  return out;
}

describe('POST /orgs/{organizationId}/sites/{siteId}/unpublish (unpublishSite)', () => {
  it('takes a published site offline: the reader answers 404 until it is published again', async () => {
    const org = await newOrg();
    const space = await mergedSpace(org, 'Guide', [{ markdown: GUIDE_MARKDOWN }]);
    const site = await publishedSite(api, org, [space.id]);
    expect((await fetch(site.url)).status).toBe(200);

    const res = await api.request('POST', `${site.base}/unpublish`, { token: org.admin.token });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ object: 'site', id: site.id, published: false, title: 'Widget Docs', siteSpaces: 1 });
    expect(res.body.urls.published).toBeUndefined();
    expect((await getRecord(siteEntity.key({ siteId: site.id }), true))!.published).toBe(false);
    expect((await fetch(site.url)).status).toBe(404);
    expect((await fetch(`${site.url}/getting-started`)).status).toBe(404);
    const listed = await api.request('GET', `/orgs/${org.id}/sites`, { token: org.admin.token, query: { published: 'true' } });
    expect(listed.body.items).toEqual([]);

    // Unpublishing again changes nothing; the structure was kept, so publishing restores the site.
    const again = await api.request('POST', `${site.base}/unpublish`, { token: org.admin.token });
    expect(again.status).toBe(200);
    expect(again.body.published).toBe(false);
    const republished = await api.request('POST', `${site.base}/publish`, { token: org.admin.token });
    expect(republished.body.urls.published).toBe(site.url);
    expect((await fetch(`${site.url}/getting-started`)).status).toBe(200);
  });

  it('needs the role publishing needs (create); 404 across organizations', async () => {
    const org = await newOrg();
    const site = await publishedSite(api, org, []);
    const editor = await org.member('edit');
    const denied = await api.request('POST', `${site.base}/unpublish`, { token: editor.token });
    expect(denied.status).toBe(403);
    expect((await getRecord(siteEntity.key({ siteId: site.id }), true))!.published).toBe(true);
    const other = await newOrg();
    expect((await api.request('POST', `${site.base}/unpublish`, { token: other.admin.token })).status).toBe(404);
    expect((await api.request('POST', `/orgs/${other.id}/sites/${site.id}/unpublish`, { token: other.admin.token })).status).toBe(404);
    expect((await api.request('POST', `/orgs/${org.id}/sites/missing/unpublish`, { token: org.admin.token })).status).toBe(404);
    expect((await api.request('POST', `${site.base}/unpublish`)).status).toBe(401);
    const creator = await org.member('create');
    const done = await api.request('POST', `${site.base}/unpublish`, { token: creator.token });
    expect(done.status).toBe(200);
    expect(done.body.permissions).toMatchObject({ admin: false });
  });

  it('through the official client', async () => {
    const org = await newOrg();
    const site = await publishedSite(api, org, []);
    const res = await officialClient(api, org.admin.token).orgs.unpublishSite(org.id, site.id);
    expect(res.status).toBe(200);
    expect(res.data.published).toBe(false);
    expect(res.data.id).toBe(site.id);
    expectPublicContract('POST', `/orgs/${org.id}/sites/${site.id}/unpublish`, res);
    expect((await fetch(site.url)).status).toBe(404);
  });
});

describe('POST /orgs/{organizationId}/sites/{siteId}/search (searchSiteContent)', () => {
  /**
   * A site with two sections: Reference (default) = alpha (default), beta (fr), gamma;
   * Extra = delta (default), epsilon (fr). Every space mentions plutonium.
   */
  let org: TestOrg;
  let base: string;
  const spaces: Record<string, string> = {};
  const siteSpaces: Record<string, string> = {};

  beforeAll(async () => {
    org = await newOrg();
    const text = (title: string) => `# ${title}\n\nThe ${title.toLowerCase()} runs on plutonium.\n`;
    spaces.alpha = (await mergedSpace(org, 'Alpha', [
      { markdown: text('Capacitor') },
      { markdown: '# Secret\n\nHidden plutonium notes.\n', hidden: true },
      { markdown: '# Internal\n\nUnindexed plutonium notes.\n', noIndex: true },
    ])).id;
    for (const name of ['beta', 'gamma', 'delta', 'epsilon']) spaces[name] = (await mergedSpace(org, name, [{ markdown: text(`Reactor ${name}`) }])).id;
    for (const name of ['beta', 'epsilon']) {
      expect((await api.request('PATCH', `/spaces/${spaces[name]}`, { token: org.admin.token, body: { language: 'fr' } })).status).toBe(200);
    }
    const site = await publishedSite(api, org, [spaces.alpha!, spaces.beta!]);
    base = site.base;
    const call = (method: string, path: string, body?: unknown) => api.request(method, `${base}${path}`, { token: org.admin.token, body });
    // The root content (alpha, beta) becomes the first section, of the site's name; gamma
    // joins it (the default section), delta and epsilon make the second.
    const extra = await call('POST', '/sections', { spaceId: spaces.delta, title: 'Extra' });
    expect(extra.status).toBe(201);
    expect((await call('POST', '/site-spaces', { spaceId: spaces.gamma })).status).toBe(201);
    expect((await call('POST', '/site-spaces', { spaceId: spaces.epsilon, sectionId: extra.body.id })).status).toBe(201);
    for (const s of (await call('GET', '/site-spaces')).body.items) siteSpaces[s.space.title] = s.id;
  });

  const search = (body: unknown, query: Record<string, string | number> = {}, token = org.admin.token) =>
    api.request('POST', `${base}/search`, { token, body, query });
  const spaceIds = (items: { id: string }[]) => items.map((i) => i.id).sort();
  const expected = (...names: string[]) => names.map((n) => spaces[n]!).sort();

  it('searches every site space by default, showing what readers can find', async () => {
    const res = await search({ query: 'plutonium' });
    expect(res.status).toBe(200);
    expect(spaceIds(res.body.items)).toEqual(expected('alpha', 'beta', 'gamma', 'delta', 'epsilon'));
    expect(res.body.count).toBe(5);
    const alpha = res.body.items.find((i: { id: string }) => i.id === spaces.alpha);
    expect(alpha).toMatchObject({ type: 'space', title: 'Alpha', score: expect.any(Number) });
    // Hidden and noIndex pages are not found.
    expect(alpha.pages.map((p: { title: string }) => p.title)).toEqual(['Capacitor']);
    expect(alpha.pages[0]).toMatchObject({ path: 'capacitor', resultType: expect.any(String), ancestors: [], urls: { app: expect.stringContaining(`/s/${spaces.alpha}/capacitor`) } });
    expect(alpha.pages[0].sections[0].body).toContain('plutonium');
    // One ranking across the spaces: ranks 1..n.
    const ranks = res.body.items.flatMap((i: { pages: { rank: number }[] }) => i.pages.map((p) => p.rank)).sort((a: number, b: number) => a - b);
    expect(ranks).toEqual([1, 2, 3, 4, 5]);
    expect(spaceIds((await search({ query: 'plutonium', mode: 'all' })).body.items)).toEqual(spaceIds(res.body.items));
    expect((await search({ query: 'nothingmatchesthis' })).body).toEqual({ items: [], count: 0 });
  });

  it('follows the scope: specific, default (per section, by language), restricted', async () => {
    const ids = async (body: Record<string, unknown>) => {
      const res = await search({ query: 'plutonium', ...body });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return spaceIds(res.body.items);
    };
    const { beta, gamma } = { beta: siteSpaces.beta!, gamma: siteSpaces.gamma! };
    expect(await ids({ scope: { mode: 'specific', siteSpaceIds: [beta, gamma] } })).toEqual(expected('beta', 'gamma'));
    expect(await ids({ siteSpaceIds: [beta, gamma] })).toEqual(expected('beta', 'gamma'));
    expect(await ids({ scope: { mode: 'all' } })).toEqual(expected('alpha', 'beta', 'gamma', 'delta', 'epsilon'));
    // Each section's default site space.
    expect(await ids({ scope: { mode: 'default' } })).toEqual(expected('alpha', 'delta'));
    // From beta (fr): beta in its section, the fr site space of the other.
    expect(await ids({ scope: { mode: 'default', currentSiteSpace: beta } })).toEqual(expected('beta', 'epsilon'));
    expect(await ids({ mode: 'current', siteSpaceId: beta })).toEqual(expected('beta', 'epsilon'));
    expect(await ids({ scope: { mode: 'default', currentSiteSpace: beta, restrictTo: 'currentSiteSpace' } })).toEqual(expected('beta'));
    expect(await ids({ scope: { mode: 'default', currentSiteSpace: beta, restrictTo: 'otherSiteSpaces' } })).toEqual(expected('epsilon'));
    expect(await ids({ scope: { mode: 'default', currentSiteSpace: siteSpaces.gamma } })).toEqual(expected('gamma', 'delta'));
  });

  it('paginates over spaces with a cursor bound to the search', async () => {
    const first = await search({ query: 'plutonium' }, { limit: 2 });
    expect(first.body.items).toHaveLength(2);
    const second = await search({ query: 'plutonium' }, { limit: 2, page: first.body.next.page });
    const third = await search({ query: 'plutonium' }, { limit: 2, page: second.body.next.page });
    expect(third.body.items).toHaveLength(1);
    expect(third.body.next).toBeUndefined();
    expect(spaceIds([...first.body.items, ...second.body.items, ...third.body.items])).toEqual(expected('alpha', 'beta', 'gamma', 'delta', 'epsilon'));
    const otherSearch = await search({ query: 'reactor' }, { limit: 2, page: first.body.next.page });
    expect(otherSearch.status).toBe(400);
    expect(otherSearch.body.error.message).toMatch(/^page: /);
  });

  it('refuses bad bodies with 400 naming the field', async () => {
    const message = async (body: unknown, query: Record<string, string | number> = {}) => {
      const res = await search(body, query);
      expect(res.status, JSON.stringify(res.body)).toBe(400);
      return res.body.error.message as string;
    };
    expect(await message({})).toBe('query: is required');
    expect(await message({ query: 'x'.repeat(513) })).toMatch(/^query: must be at most 512/);
    expect(await message({ query: 'a', scope: { mode: 'specific', siteSpaceIds: [siteSpaces.beta, 'nope'] } })).toBe('scope.siteSpaceIds.1: no site space nope in this site');
    expect(await message({ query: 'a', scope: { mode: 'specific', siteSpaceIds: [] } })).toMatch(/^scope.siteSpaceIds: /);
    expect(await message({ query: 'a', scope: { mode: 'everything' } })).toMatch(/^scope(\.mode)?: /);
    expect(await message({ query: 'a', scope: { mode: 'default', restrictTo: 'otherSiteSpaces' } })).toMatch(/^scope.restrictTo: /);
    expect(await message({ query: 'a', scope: { mode: 'all' }, mode: 'all' })).toMatch(/^scope: /);
    expect(await message({ query: 'a', mode: 'current' })).toMatch(/^siteSpaceId: /);
    expect(await message({ query: 'a', mode: 'current', siteSpaceId: 'nope' })).toBe('siteSpaceId: no site space nope in this site');
    expect(await message({ query: 'a', unknown: 1 })).toBe('unknown: is not an allowed field');
    expect(await message({ query: 'a' }, { limit: 0 })).toMatch(/^limit: /);
  });

  it('is for members of the organization (guests 403, others 404)', async () => {
    const reader = await org.member('read');
    expect((await search({ query: 'plutonium' }, {}, reader.token)).body.count).toBe(5);
    const guest = await org.member(null);
    expect((await search({ query: 'plutonium' }, {}, guest.token)).status).toBe(403);
    const other = await newOrg();
    expect((await search({ query: 'plutonium' }, {}, other.admin.token)).status).toBe(404);
    expect((await api.request('POST', `/orgs/${other.id}/sites/${base.split('/').pop()}/search`, { token: other.admin.token, body: { query: 'a' } })).status).toBe(404);
    expect((await api.request('POST', `${base}/search`, { body: { query: 'a' } })).status).toBe(401);
  });

  it('through the official client', async () => {
    const siteId = base.split('/').pop()!;
    const res = await officialClient(api, org.admin.token).orgs.searchSiteContent(org.id, siteId, { query: 'capacitor', scope: { mode: 'all' } }, { limit: 10 });
    expect(res.status).toBe(200);
    expect(res.data.items.map((i) => i.id)).toEqual([spaces.alpha]);
    const [item] = res.data.items;
    expect(item!.type === 'space' && item!.pages[0]!.title).toBe('Capacitor');
    expectPublicContract('POST', `/orgs/${org.id}/sites/${siteId}/search`, res);
  });
});

describe('GET .../content/page/{pageId}/backlinks (page backlinks)', () => {
  const pagesMarkdown = [
    '# Guide\n\nSee [the API](./api.md) and [its authentication](./api.md#authentication).\n',
    '# API\n\n## Authentication\n\nBack to the [guide](./guide.md); [this section](#authentication).\n',
    '# Other\n\nNothing links here.\n\nBut this links to [the API](./api.md).\n',
  ];

  it('lists the places of other pages linking to a page, in primary content and in a change request', async () => {
    const org = await newOrg();
    const space = await mergedSpace(org, 'Linked', pagesMarkdown.map((markdown) => ({ markdown })));
    const pages = await primaryPages(org, space.id);
    const at = (page: string) => ({
      kind: 'page', organization: org.id, space: space.id, versionContext: { type: 'revision', revision: space.revision },
      page, internalLocation: { type: 'node', node: expect.any(String) },
    });
    const backlinks = (pageId: string, query: Record<string, string | number> = {}) =>
      api.request('GET', `/spaces/${space.id}/content/page/${pageId}/backlinks`, { token: org.admin.token, query });

    const toApi = await backlinks(pages.API!);
    expect(toApi.status).toBe(200);
    // Guide's two links sit in one block: one place; API's link to its own heading is not a backlink.
    expect(toApi.body).toEqual({ items: [at(pages.Guide!), at(pages.Other!)], count: 2 });
    expect((await backlinks(pages.Guide!)).body.items).toEqual([at(pages.API!)]);
    expect((await backlinks(pages.Other!)).body).toEqual({ items: [], count: 0 });
    const first = await backlinks(pages.API!, { limit: 1 });
    expect(first.body.items).toEqual([at(pages.Guide!)]);
    const second = await backlinks(pages.API!, { limit: 1, page: first.body.next.page });
    expect(second.body).toEqual({ items: [at(pages.Other!)], count: 1 });
    expect((await backlinks('missing')).status).toBe(404);
    expect((await backlinks(pages.API!, { limit: 1001 })).body.error.message).toMatch(/^limit: /);
    const other = await newOrg();
    expect((await api.request('GET', `/spaces/${space.id}/content/page/${pages.API}/backlinks`, { token: other.admin.token })).status).toBe(404);

    // A change request that links to Other: its content has the backlink, primary content not yet.
    const cr = await api.request('POST', `/spaces/${space.id}/change-requests`, { token: org.admin.token, body: { subject: 'Link' } });
    const revision = await editContent(api, org, space.id, cr.body.id, [{ operation: 'insert_page', document: { markdown: '# New\n\nRead [other](./other.md).\n' } }]);
    const crPages = await pagesByTitle(api, org, space.id, cr.body.id);
    const inCr = await api.request('GET', `/spaces/${space.id}/change-requests/${cr.body.id}/content/page/${pages.Other}/backlinks`, { token: org.admin.token });
    expect(inCr.status).toBe(200);
    expect(inCr.body.items).toEqual([{ ...at(crPages.New!.id), versionContext: { type: 'revision', revision } }]);
    expect((await backlinks(pages.Other!)).body.count).toBe(0);

    // The official client has no typed method for it (0.202.0): its generic request.
    const res = await officialClient(api, org.admin.token).request<{ items: unknown[] }>({
      path: `/spaces/${space.id}/content/page/${pages.Guide}/backlinks`, method: 'GET', secure: true, format: 'json',
    });
    expect(res.status).toBe(200);
    expect(res.data.items).toEqual([at(pages.API!)]);
  });
});

describe('GET .../page/{pageId}/meta-links (page meta links)', () => {
  const instructions = { object: 'document', data: {}, nodes: [{ object: 'block', type: 'paragraph', data: {}, nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: 'Be concise', marks: [] }] }] }] };

  /** Creates and runs a translation of the space into `language`; answers the result space id. */
  async function translated(org: TestOrg, spaceId: string, language: string): Promise<string> {
    const created = await api.request('POST', `/orgs/${org.id}/translations`, { token: org.admin.token, body: { source: { space: spaceId, language: 'en' }, language, instructions } });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect((await api.request('POST', `/orgs/${org.id}/translations/${created.body.id}/run`, { token: org.admin.token })).status).toBe(204);
    for (let i = 0; i < 20; i++) {
      const record = await getRecord(translationEntity.key({ orgId: org.id, translationId: created.body.id }), true);
      const item = record ? translationEntity.fromRecord(record) : undefined;
      if (item?.result && !item.pendingRun) return item.result.space;
      await pollOnce('translations', 1);
    }
    throw new Error('the translation run did not complete');
  }

  it('lists the same page in the other language versions of its space', async () => {
    const org = await newOrg();
    const source = await mergedSpace(org, 'Handbook', [{ markdown: '# Intro\n\nHello world.\n' }]);
    const pageId = (await primaryPages(org, source.id)).Intro!;
    const fr = await translated(org, source.id, 'fr');
    const de = await translated(org, source.id, 'de');
    const alternate = (space: string) => ({ kind: 'page', page: pageId, space });
    const metaLinks = (path: string, token = org.admin.token) => api.request('GET', path, { token });

    const fromSource = await metaLinks(`/spaces/${source.id}/content/page/${pageId}/meta-links`);
    expect(fromSource.status).toBe(200);
    // The source first, then the other versions by language.
    expect(fromSource.body).toEqual({ alternates: [alternate(de), alternate(fr)] });
    expect((await metaLinks(`/spaces/${fr}/content/page/${pageId}/meta-links`)).body).toEqual({ alternates: [alternate(source.id), alternate(de)] });
    expect((await metaLinks(`/spaces/${source.id}/revisions/${source.revision}/page/${pageId}/meta-links`)).body).toEqual(fromSource.body);
    expect((await metaLinks(`/spaces/${source.id}/content/page/missing/meta-links`)).status).toBe(404);
    expect((await metaLinks(`/spaces/${source.id}/revisions/missing/page/${pageId}/meta-links`)).status).toBe(404);
    const other = await newOrg();
    expect((await metaLinks(`/spaces/${source.id}/content/page/${pageId}/meta-links`, other.admin.token)).status).toBe(404);

    // A page only in a change request has no other version yet.
    const cr = await api.request('POST', `/spaces/${source.id}/change-requests`, { token: org.admin.token, body: { subject: 'More' } });
    await editContent(api, org, source.id, cr.body.id, [{ operation: 'insert_page', document: { markdown: '# Later\n\nSoon.\n' } }]);
    const later = (await pagesByTitle(api, org, source.id, cr.body.id)).Later!.id;
    const crBase = `/spaces/${source.id}/change-requests/${cr.body.id}/content/page`;
    expect((await metaLinks(`${crBase}/${later}/meta-links`)).body).toEqual({ alternates: [] });
    expect((await metaLinks(`${crBase}/${pageId}/meta-links`)).body).toEqual(fromSource.body);

    // A deleted version is no longer an alternate.
    expect((await api.request('DELETE', `/spaces/${de}`, { token: org.admin.token })).status).toBe(205);
    expect((await metaLinks(`/spaces/${source.id}/content/page/${pageId}/meta-links`)).body).toEqual({ alternates: [alternate(fr)] });

    // Through the official client, each of the three operations.
    const client = officialClient(api, org.admin.token);
    const space = await client.spaces.listSpacePageMetaLinks(source.id, pageId);
    expect(space.data.alternates).toEqual([alternate(fr)]);
    expectPublicContract('GET', `/spaces/${source.id}/content/page/${pageId}/meta-links`, space);
    const inCr = await client.spaces.listChangeRequestPageMetaLinks(source.id, cr.body.id, later);
    expect(inCr.data).toEqual({ alternates: [] });
    expectPublicContract('GET', `${crBase}/${later}/meta-links`, inCr);
    const inRevision = await client.spaces.listRevisionPageMetaLinks(fr, (await api.request('GET', `/spaces/${fr}`, { token: org.admin.token })).body.revision, pageId);
    expect(inRevision.data.alternates).toEqual([alternate(source.id)]);
    expect(inRevision.data.canonical).toBeUndefined();
    expectPublicContract('GET', `/spaces/${fr}/revisions/x/page/${pageId}/meta-links`, inRevision);
  });

  it('answers no alternates for a space without translations', async () => {
    const org = await newOrg();
    const space = await mergedSpace(org, 'Alone', [{ markdown: '# Only\n\nText.\n' }]);
    const pageId = (await primaryPages(org, space.id)).Only!;
    const res = await api.request('GET', `/spaces/${space.id}/content/page/${pageId}/meta-links`, { token: org.admin.token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ alternates: [] });
  });
});
