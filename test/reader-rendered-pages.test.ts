/**
 * A published page is rendered once per ETag by an instance and served again
 * (functions/reader/rendered-pages.ts): what each view gets is the same as a fresh rendering,
 * any change of what the page shows renders it anew, and pages reached with credentials
 * (share links, visitor tokens) are rendered for each request. Renders are observed on the
 * reader's diagnostics channel.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { newOrg, useTestApi, type TestOrg } from './support/api.ts';
import { CONFIG_MARKDOWN, GUIDE_MARKDOWN, publishedSite, spaceWithPages } from './support/reader-site.ts';
import { pageRenders } from '../functions/reader/rendered-pages.ts';

const api = useTestApi();
let org: TestOrg;
let space: { id: string; title: string };
let other: { id: string; title: string };
let site: { id: string; url: string; base: string };

const renders: string[] = [];
const onRender = (message: unknown) => renders.push((message as { etag: string }).etag);
beforeAll(async () => {
  subscribe(pageRenders.name, onRender);
  org = await newOrg();
  space = await spaceWithPages(api, org, 'Handbook', [GUIDE_MARKDOWN, CONFIG_MARKDOWN]);
  other = await spaceWithPages(api, org, 'Reference', ['# Reference\n\nAll the options.\n']);
  // Two spaces: each page's breadcrumbs name its space.
  site = await publishedSite(api, org, [space.id, other.id], 'public');
}, 120_000);
afterAll(() => {
  unsubscribe(pageRenders.name, onRender);
});

const get = (url: string, headers: Record<string, string> = {}) => fetch(url, { headers, redirect: 'manual' });
/** Renders of the page whose ETag is `etag` (weak or not) since `since`. */
const rendersOf = (etag: string, since: number) => renders.slice(since).filter((e) => e === etag.replace(/^W\//, '')).length;

async function pageUrl(): Promise<string> {
  const root = await get(site.url);
  expect(root.status).toBe(200);
  const html = await root.text();
  const href = /<a[^>]+href="([^"]+\/configuration)"/.exec(html)?.[1];
  expect(href, 'a link to the configuration page').toBeTruthy();
  return new URL(href!, site.url).href;
}

describe('published pages rendered once per ETag', () => {
  it('a page viewed twice is rendered once and served the same bytes; its markdown too', async () => {
    const url = await pageUrl();
    const since = renders.length;
    const first = await get(url);
    const second = await get(url);
    expect(first.status).toBe(200);
    expect(second.status).toBe(200);
    const etag = first.headers.get('etag')!;
    expect(second.headers.get('etag')).toBe(etag);
    expect(second.headers.get('content-security-policy')).toBe(first.headers.get('content-security-policy'));
    expect(await second.text()).toBe(await first.text());
    expect(rendersOf(etag, since)).toBe(1);
    const markdownSince = renders.length;
    const md1 = await get(`${url}.md`);
    const md2 = await get(`${url}.md`);
    expect(await md2.text()).toBe(await md1.text());
    expect(rendersOf(md1.headers.get('etag')!, markdownSince)).toBe(1);
  });

  it('renaming a space of the site renders its pages anew (a new ETag, the new name in the breadcrumbs)', async () => {
    const url = await pageUrl();
    const before = await get(url);
    const oldEtag = before.headers.get('etag')!;
    expect(await before.text()).toContain('Handbook');
    const renamed = await api.request('PATCH', `/spaces/${space.id}`, { token: org.admin.token, body: { title: 'Operator handbook' } });
    expect(renamed.status).toBe(200);
    const since = renders.length;
    const after = await get(url);
    expect(after.status).toBe(200);
    expect(after.headers.get('etag')).not.toBe(oldEtag);
    expect(await after.text()).toContain('Operator handbook');
    expect(rendersOf(after.headers.get('etag')!, since)).toBe(1);
    // The browser's old copy is not the page any more.
    expect((await get(url, { 'if-none-match': oldEtag })).status).toBe(200);
  });

  it('a customization change renders the page anew', async () => {
    const url = await pageUrl();
    const before = await get(url);
    expect(await before.text()).not.toContain('Maintenance tonight');
    const settings = (await api.request('GET', `${site.base}/customization`, { token: org.admin.token })).body;
    delete settings.updatedAt;
    settings.announcement = { enabled: true, message: 'Maintenance tonight', style: 'info' };
    const put = await api.request('PUT', `${site.base}/customization`, { token: org.admin.token, body: settings });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    const after = await get(url);
    expect(after.headers.get('etag')).not.toBe(before.headers.get('etag'));
    expect(await after.text()).toContain('Maintenance tonight');
  });

  it('pages reached through a share link are rendered for every request', async () => {
    const shared = await publishedSite(api, org, [space.id], 'share-link');
    const link = await api.request('POST', `${shared.base}/share-links`, { token: org.admin.token, body: { name: 'Partners' } });
    expect(link.status).toBe(201);
    const first = await get(link.body.urls.published);
    expect(first.status).toBe(200);
    const cookie = first.headers.get('set-cookie')!.split(';')[0]!;
    const url = `${shared.url}/configuration`;
    const since = renders.length;
    const one = await get(url, { cookie });
    const two = await get(url, { cookie });
    expect(one.status).toBe(200);
    expect(two.status).toBe(200);
    expect(one.headers.get('cache-control')).toBe('private, no-store');
    expect(rendersOf(one.headers.get('etag')!, since)).toBe(2);
  });

  it('a page view makes three storage reads: the site partition (customization included; the address counter written beside it, in steps), then its spaces beside the installations; in one step once the instance has seen the site, unless the view writes the address counter', async () => {
    const fresh = await publishedSite(api, org, [space.id], 'public');
    const trips = (answer: Response) => [answer.headers.get('x-db-round-trips'), answer.headers.get('x-db-steps')];
    process.env.DEBUG_ROUND_TRIPS = '1';
    try {
      // First view by this instance: the tree names the spaces and the organization, read after it.
      const first = await get(fresh.url);
      expect(first.status).toBe(200);
      expect(trips(first)).toEqual(['3', '2']);
      // Then both are read beside the tree's Query; a view that writes the address counter (at most
      // one a second) waits for that write before it starts them, and takes two steps again.
      const views = [];
      for (let i = 0; i < 5; i++) views.push(await get(fresh.url));
      for (const view of views) expect(view.status).toBe(200);
      const warm = views.map(trips);
      expect(warm.every(([count, steps]) => count === '3' && (steps === '1' || steps === '2')), JSON.stringify(warm)).toBe(true);
      expect(warm.filter(([, steps]) => steps === '1').length, JSON.stringify(warm)).toBeGreaterThanOrEqual(3);
      // Markdown shows no integration scripts: no installations read.
      const page = /<a[^>]+href="([^"]+\/configuration)"/.exec(await views[0]!.text())?.[1];
      expect(trips(await get(`${new URL(page!, fresh.url).href}.md`))[0]).toBe('2');

      // What the tree says counts, read fresh: a space added to the site since is read after the
      // tree (one read more: the early one did not have its key) and shown; the next view reads it early.
      const added = await api.request('POST', `${fresh.base}/site-spaces`, { token: org.admin.token, body: { spaceId: other.id } });
      expect(added.status).toBe(201);
      const changed = await get(fresh.url);
      expect(trips(changed)[0]).toBe('4');
      expect(await changed.text()).toContain(other.title);
      const settled = await get(fresh.url);
      expect(trips(settled)[0]).toBe('3');
      expect(await settled.text()).toContain(other.title);
    } finally {
      delete process.env.DEBUG_ROUND_TRIPS;
    }
  });
});
