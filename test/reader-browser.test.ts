import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { newOrg, startTestApi, type TestApi, type TestOrg } from './support/api.ts';
import { CONFIG_MARKDOWN, GUIDE_MARKDOWN, publishedSite, spaceWithPages } from './support/reader-site.ts';
import { signVisitorToken } from '../shared/reader/visitor.ts';

/** Debian's chromium (`apt-get install chromium`; .ci/run installs it). Without it, these tests skip. */
const CHROMIUM = '/usr/bin/chromium';

describe.skipIf(!existsSync(CHROMIUM))('reader site in headless Chromium', () => {
  let api: TestApi;
  let org: TestOrg;
  let browser: Browser;
  let page: Page;
  let space: { id: string };

  beforeAll(async () => {
    api = await startTestApi();
    org = await newOrg();
    space = await spaceWithPages(api, org, 'Guide', [GUIDE_MARKDOWN, CONFIG_MARKDOWN]);
    const { chromium } = await import('playwright-core');
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    });
  });
  afterAll(async () => {
    await browser?.close();
    await api?.close();
  });

  const newPage = async () => {
    const context = await browser.newContext();
    page = await context.newPage();
    return page;
  };

  it('navigates the sidebar, sees a hint and switches tabs', async () => {
    const site = await publishedSite(api, org, [space.id], 'public');
    const p = await newPage();
    await p.goto(site.url);
    await expect.poll(() => p.title()).toBe('Getting started · Widget Docs');
    expect(await p.locator('.hint.hint-warning').innerText()).toContain('Back up your data');

    // Tabs: the first panel shows; clicking "Linux" shows its panel and hides the first.
    const macos = p.getByRole('tabpanel').filter({ hasText: 'brew install' });
    const linux = p.locator('.tab-panel', { hasText: 'apt install' });
    expect(await macos.isVisible()).toBe(true);
    expect(await linux.isVisible()).toBe(false);
    await p.getByRole('tab', { name: 'Linux' }).click();
    expect(await linux.isVisible()).toBe(true);
    expect(await p.locator('.tab-panel', { hasText: 'brew install' }).isVisible()).toBe(false);
    expect(await p.getByRole('tab', { name: 'Linux' }).getAttribute('aria-selected')).toBe('true');

    // Sidebar navigation to another page.
    await p.getByRole('navigation', { name: 'Pages' }).getByRole('link', { name: 'Configuration' }).click();
    await p.waitForURL(`${site.url}/configuration`);
    expect(await p.locator('h1').innerText()).toBe('Configuration');
    expect(await p.locator('aside a[aria-current="page"]').innerText()).toBe('Configuration');
    // Pagination back to the first page.
    await p.locator('nav.pagination a[rel="prev"]').click();
    await p.waitForURL(`${site.url}/getting-started`);
    expect(await p.locator('h1').innerText()).toBe('Getting started');
  });

  it('searches with the search box', async () => {
    const site = await publishedSite(api, org, [space.id], 'public');
    const p = await newPage();
    await p.goto(site.url);
    await p.getByRole('searchbox', { name: 'Search' }).fill('flux capacitor');
    await p.getByRole('searchbox', { name: 'Search' }).press('Enter');
    await p.waitForURL(/\?q=flux/);
    const result = p.locator('.search-results a').first();
    expect(await result.innerText()).toBe('Configuration');
    await result.click();
    await p.waitForURL(new RegExp(`${site.url}/configuration`));
    expect(await p.locator('h1').innerText()).toBe('Configuration');
  });

  it('share-link and visitor-auth sites refuse without credentials, open with them', async () => {
    const shared = await publishedSite(api, org, [space.id], 'share-link');
    const p = await newPage();
    const refused = await p.goto(shared.url);
    expect(refused?.status()).toBe(401);
    expect(await p.locator('body').innerText()).not.toContain('Back up your data');
    const link = await api.request('POST', `${shared.base}/share-links`, { token: org.admin.token, body: { name: 'Browser' } });
    await p.goto(link.body.urls.published);
    expect(await p.locator('.hint').innerText()).toContain('Back up your data');
    // The cookie keeps the visitor in while navigating.
    await p.getByRole('navigation', { name: 'Pages' }).getByRole('link', { name: 'Configuration' }).click();
    await p.waitForURL(`${shared.url}/configuration`);
    expect(await p.locator('h1').innerText()).toBe('Configuration');

    const guarded = await publishedSite(api, org, [space.id], 'visitor-auth');
    const q = await newPage();
    expect((await q.goto(guarded.url))?.status()).toBe(401);
    expect(await q.locator('h1').innerText()).toBe('Access restricted');
    expect((await q.goto(`${guarded.url}?jwt_token=not.a.jwt`))?.status()).toBe(401);
    const token = await signVisitorToken(guarded.id, { plan: 'pro' });
    expect((await q.goto(`${guarded.url}?jwt_token=${token}`))?.status()).toBe(200);
    await q.goto(`${guarded.url}/configuration`);
    expect(await q.locator('h1').innerText()).toBe('Configuration');
  });
});
