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

  it('a page view waits on three storage reads in two steps: the site partition (customization included; the address counter written beside it, in steps), then its spaces beside the installations', async () => {
    const url = await pageUrl();
    process.env.DEBUG_ROUND_TRIPS = '1';
    try {
      const html = await get(url);
      expect(html.status).toBe(200);
      expect(html.headers.get('x-db-round-trips')).toBe('3');
      // Markdown shows no integration scripts: no installations read.
      expect((await get(`${url}.md`)).headers.get('x-db-round-trips')).toBe('2');
    } finally {
      delete process.env.DEBUG_ROUND_TRIPS;
    }
  });
});
