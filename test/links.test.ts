import { describe, expect, it } from 'vitest';
import { useTestApi, newOrg, type TestOrg } from './support/api.ts';
import { editContent, makePrimary, pagesByTitle, spaceWithChangeRequest } from './support/published-content.ts';
import { config } from '../shared/config.ts';
import { linkIndexes } from '../shared/content/links/link-index.ts';

const api = useTestApi();

/** A 1x1 GIF. */
const GIF = 'R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7';

const guide = [
  '# Guide',
  '',
  'See [the API](./api.md) and [its auth section](./api.md#authentication).',
  '',
  'Broken: [y](/pages/doesnotexist), [missing](./missing.md) and [no section](./api.md#nope).',
  '',
  `External [site](https://example.com/docs) and in-app [app](${config.appUrl}/s/elsewhere/page).`,
  '',
  'Jump to [details](#details) or [nowhere](#nowhere).',
  '',
  '![Logo](./logo)',
  '',
  '![Gone](.gitbook/assets/gone.png)',
  '',
  '## Details',
  '',
  'Again the [site](https://example.com/docs) and the [logo file](./logo).',
  '',
].join('\n');

/** Primary content: Guide (every kind of link) and API (one link back); a file `logo.gif`. */
async function linkedSpace(org: TestOrg) {
  const { space, cr } = await spaceWithChangeRequest(api, org);
  const revision = await editContent(api, org, space.id, cr.id, [
    { operation: 'insert_files', files: [{ ref: 'logo', name: 'logo.gif', contentType: 'image/gif', base64: GIF }] },
    { operation: 'insert_page', ref: 'guide', document: { markdown: guide } },
    { operation: 'insert_page', ref: 'api', document: { markdown: '# API\n\n## Authentication\n\nUse tokens. Back to the [guide](./guide.md).\n' } },
  ]);
  await makePrimary(space.id, revision);
  const pages = await pagesByTitle(api, org, space.id, cr.id);
  const files = await api.request('GET', `/spaces/${space.id}/content/files`, { token: org.admin.token });
  return { space, cr, revision, pages, file: files.body.items[0] as { id: string } };
}

function get(org: TestOrg, path: string, query: Record<string, string | number> = {}, token = org.admin.token) {
  return api.request('GET', path, { token, query });
}

type LinkItem = { status: string; relation: string; targetReference: Record<string, unknown>; locationReferences: Record<string, unknown>[] };

describe('GET /spaces/{spaceId}/links', () => {
  it('classifies every link of the primary content as ok, broken or in-app, with stats', async () => {
    const org = await newOrg();
    const { space, revision, pages, file } = await linkedSpace(org);
    const res = await get(org, `/spaces/${space.id}/links`);
    expect(res.status).toBe(200);
    const items = res.body.items as LinkItem[];
    const context = { organization: org.id, space: space.id, versionContext: { type: 'revision', revision } };
    const guideId = pages.Guide!.id;
    const apiId = pages.API!.id;
    const at = (page: string) => ({ kind: 'page', ...context, page, internalLocation: { type: 'node', node: expect.any(String) } });
    const byTarget = (target: Record<string, unknown>) => items.find((i) => JSON.stringify(i.targetReference) === JSON.stringify(target));

    expect(byTarget({ kind: 'page', ...context, page: apiId })).toEqual({
      status: 'ok', relation: 'reference', targetReference: { kind: 'page', ...context, page: apiId }, locationReferences: [at(guideId)],
    });
    expect(byTarget({ kind: 'page', ...context, page: apiId, internalLocation: { type: 'anchor', anchor: 'authentication' } })?.status).toBe('ok');
    expect(byTarget({ kind: 'page', ...context, page: apiId, internalLocation: { type: 'anchor', anchor: 'nope' } })?.status).toBe('broken');
    expect(byTarget({ kind: 'page', ...context, page: 'doesnotexist' })?.status).toBe('broken');
    expect(byTarget({ kind: 'page', ...context, page: './missing.md' })?.status).toBe('broken');
    expect(byTarget({ kind: 'page', ...context, page: guideId, internalLocation: { type: 'anchor', anchor: 'details' } })?.status).toBe('ok');
    expect(byTarget({ kind: 'page', ...context, page: guideId, internalLocation: { type: 'anchor', anchor: 'nowhere' } })?.status).toBe('broken');
    expect(byTarget({ kind: 'page', ...context, page: guideId })?.locationReferences).toEqual([at(apiId)]);
    // The same external link twice is one item with two locations (two blocks).
    const site = byTarget({ kind: 'url', url: 'https://example.com/docs' })!;
    expect(site.status).toBe('ok');
    expect(site.locationReferences).toHaveLength(2);
    expect(byTarget({ kind: 'url', url: `${config.appUrl}/s/elsewhere/page` })?.status).toBe('in-app');
    const logo = byTarget({ kind: 'file', ...context, file: file.id })!;
    expect(logo.status).toBe('ok');
    expect(logo.locationReferences).toHaveLength(2);
    expect(byTarget({ kind: 'file', ...context, file: '.gitbook/assets/gone.png' })?.status).toBe('broken');

    expect(items).toHaveLength(12);
    expect(res.body.count).toBe(12);
    expect(res.body.stats).toEqual({ total: 12, broken: { total: 5, changeRequest: 0 } });
    // Items in order of first appearance: Guide's first link comes first.
    expect(items[0]!.targetReference).toEqual({ kind: 'page', ...context, page: apiId });
  });

  it('filters by status and paginates; stats stay over every link', async () => {
    const org = await newOrg();
    const { space } = await linkedSpace(org);
    const broken = await get(org, `/spaces/${space.id}/links`, { status: 'broken' });
    expect(broken.body.items.map((i: LinkItem) => i.status)).toEqual(['broken', 'broken', 'broken', 'broken', 'broken']);
    expect(broken.body.stats).toEqual({ total: 12, broken: { total: 5, changeRequest: 0 } });
    expect((await get(org, `/spaces/${space.id}/links`, { status: 'in-app' })).body.count).toBe(1);
    expect((await get(org, `/spaces/${space.id}/links`, { status: 'ok' })).body.count).toBe(6);
    const first = await get(org, `/spaces/${space.id}/links`, { status: 'broken', limit: 3 });
    expect(first.body.items).toHaveLength(3);
    const second = await get(org, `/spaces/${space.id}/links`, { status: 'broken', limit: 3, page: first.body.next.page });
    expect(second.body.items).toHaveLength(2);
    expect(second.body.next).toBeUndefined();
    expect([...first.body.items, ...second.body.items]).toEqual(broken.body.items);
    // A cursor belongs to its status filter.
    expect((await get(org, `/spaces/${space.id}/links`, { status: 'ok', page: first.body.next.page })).status).toBe(400);
    const bad = await get(org, `/spaces/${space.id}/links`, { status: 'dead' });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toMatch(/^status: /);
  });

  it('counts broken links that active change requests would bring in', async () => {
    const org = await newOrg();
    const { space, pages } = await linkedSpace(org);
    const cr = await api.request('POST', `/spaces/${space.id}/change-requests`, { token: org.admin.token, body: { subject: 'More' } });
    await editContent(api, org, space.id, cr.body.id, [
      { operation: 'update_page', page: pages.API!.id, document: { markdown: '# API\n\n## Authentication\n\nSee [old](/pages/gone1) and [older](/pages/gone2) and [y](/pages/doesnotexist).\n' } },
    ]);
    const res = await get(org, `/spaces/${space.id}/links`);
    // gone1 and gone2 are new; doesnotexist is already broken in primary content.
    expect(res.body.stats.broken).toEqual({ total: 5, changeRequest: 2 });
    const page = await get(org, `/spaces/${space.id}/content/page/${pages.API!.id}/links`);
    // Page level: all three are new to this page.
    expect(page.body.stats).toEqual({ total: 1, broken: { total: 0, changeRequest: 3 } });
    const crPage = await get(org, `/spaces/${space.id}/change-requests/${cr.body.id}/content/page/${pages.API!.id}/links`);
    expect(crPage.status).toBe(200);
    expect(crPage.body.stats).toEqual({ total: 3, broken: { total: 3, changeRequest: 3 } });
    expect(crPage.body.items[0].targetReference).toMatchObject({ kind: 'page', page: 'gone1', versionContext: { type: 'revision', revision: expect.any(String) } });
  });

  it('answers 404 for spaces the caller cannot read and 401 without a token', async () => {
    const org = await newOrg();
    const { space } = await linkedSpace(org);
    const reader = await org.member('read');
    expect((await get(org, `/spaces/${space.id}/links`, {}, reader.token)).status).toBe(200);
    const other = await newOrg();
    expect((await get(org, `/spaces/${space.id}/links`, {}, other.admin.token)).status).toBe(404);
    expect((await get(org, '/spaces/nope/links')).status).toBe(404);
    expect((await api.request('GET', `/spaces/${space.id}/links`)).status).toBe(401);
  });

  it('extracts links once per revision and keeps the index in S3', async () => {
    const org = await newOrg();
    const { space, pages } = await linkedSpace(org);
    const before = { ...linkIndexes.stats };
    await get(org, `/spaces/${space.id}/links`);
    await get(org, `/spaces/${space.id}/content/page/${pages.Guide!.id}/links`);
    await get(org, `/spaces/${space.id}/links`, { status: 'ok' });
    expect(linkIndexes.stats.builds).toBe(before.builds + 1);
    linkIndexes.forgetCached();
    await get(org, `/spaces/${space.id}/links`);
    expect(linkIndexes.stats.builds).toBe(before.builds + 1);
    expect(linkIndexes.stats.loads).toBe(before.loads + 1);
  });
});

describe('page links', () => {
  it('lists the links of one page of primary content and of a change request', async () => {
    const org = await newOrg();
    const { space, cr, pages } = await linkedSpace(org);
    const apiLinks = await get(org, `/spaces/${space.id}/content/page/${pages.API!.id}/links`);
    expect(apiLinks.status).toBe(200);
    expect(apiLinks.body).toEqual({
      items: [{
        status: 'ok', relation: 'reference',
        targetReference: expect.objectContaining({ kind: 'page', page: pages.Guide!.id }),
        locationReferences: [expect.objectContaining({ kind: 'page', page: pages.API!.id })],
      }],
      count: 1,
      stats: { total: 1, broken: { total: 0, changeRequest: 0 } },
    });
    const guideBroken = await get(org, `/spaces/${space.id}/content/page/${pages.Guide!.id}/links`, { status: 'broken' });
    expect(guideBroken.body.count).toBe(5);
    expect(guideBroken.body.stats).toEqual({ total: 11, broken: { total: 5, changeRequest: 0 } });

    const crLinks = await get(org, `/spaces/${space.id}/change-requests/${cr.id}/content/page/${pages.Guide!.id}/links`);
    expect(crLinks.status).toBe(200);
    expect(crLinks.body.stats).toEqual({ total: 11, broken: { total: 5, changeRequest: 0 } });
    // By number too.
    expect((await get(org, `/spaces/${space.id}/change-requests/${cr.number}/content/page/${pages.Guide!.id}/links`)).status).toBe(200);

    expect((await get(org, `/spaces/${space.id}/content/page/nope/links`)).status).toBe(404);
    expect((await get(org, `/spaces/${space.id}/change-requests/${cr.id}/content/page/nope/links`)).status).toBe(404);
    expect((await get(org, `/spaces/${space.id}/change-requests/nope/content/page/${pages.Guide!.id}/links`)).status).toBe(404);
    const other = await newOrg();
    expect((await get(org, `/spaces/${space.id}/content/page/${pages.API!.id}/links`, {}, other.admin.token)).status).toBe(404);
  });
});

describe('file backlinks', () => {
  it('lists where a file is referenced, in primary content and in a change request', async () => {
    const org = await newOrg();
    const { space, cr, revision, pages, file } = await linkedSpace(org);
    const res = await get(org, `/spaces/${space.id}/content/files/${file.id}/backlinks`);
    expect(res.status).toBe(200);
    const location = {
      kind: 'page', organization: org.id, space: space.id, versionContext: { type: 'revision', revision },
      page: pages.Guide!.id, internalLocation: { type: 'node', node: expect.any(String) },
    };
    expect(res.body).toEqual({ items: [location, location], count: 2 });
    expect(res.body.items[0].internalLocation.node).not.toBe(res.body.items[1].internalLocation.node);
    const paged = await get(org, `/spaces/${space.id}/content/files/${file.id}/backlinks`, { limit: 1 });
    expect(paged.body.items).toHaveLength(1);
    expect(paged.body.next.page).toEqual(expect.any(String));

    // The change request drops one of the two references.
    const next = await editContent(api, org, space.id, cr.id, [
      { operation: 'update_page', page: pages.Guide!.id, document: { markdown: '# Guide\n\n![Logo](/files/' + file.id + ')\n' } },
    ]);
    const crRes = await get(org, `/spaces/${space.id}/change-requests/${cr.id}/content/files/${file.id}/backlinks`);
    expect(crRes.status).toBe(200);
    expect(crRes.body).toEqual({ items: [{ ...location, versionContext: { type: 'revision', revision: next } }], count: 1 });
    // Primary content is unchanged.
    expect((await get(org, `/spaces/${space.id}/content/files/${file.id}/backlinks`)).body.count).toBe(2);

    expect((await get(org, `/spaces/${space.id}/content/files/nope/backlinks`)).status).toBe(404);
    expect((await get(org, `/spaces/${space.id}/change-requests/${cr.id}/content/files/nope/backlinks`)).status).toBe(404);
    const other = await newOrg();
    expect((await get(org, `/spaces/${space.id}/content/files/${file.id}/backlinks`, {}, other.admin.token)).status).toBe(404);
  });
});
