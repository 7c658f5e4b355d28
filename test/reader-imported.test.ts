import { mkdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DOMParser } from '@xmldom/xmldom';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContextOptions, Page } from 'playwright-core';
import { newOrg, useTestApi, type TestOrg } from './support/api.ts';
import { createSpace } from './support/factories.ts';
import { createRepo, git, useGitServer } from './support/git-server.ts';
import { settleGit } from './support/git-sync.ts';
import { publishedSite } from './support/reader-site.ts';
import { HAS_CHROMIUM, launchChromium } from './support/chromium.ts';
import { axeViolations } from './support/axe.ts';
import { EXTERNAL_ENTRY, FIXTURE_PAGES, LISTED_TWICE, importedDocsRepository } from './fixtures/imported-docs/repository.ts';

/**
 * The reader on documentation imported through Git sync, walked page by page in Chromium:
 * the generated GitBook-shaped repository of test/fixtures/imported-docs/, or, to try a real
 * one, IMPORTED_DOCS_REPO=<path of a local git repository> (its HEAD branch is imported).
 */
const REAL_REPO = process.env.IMPORTED_DOCS_REPO;
/** Screenshots for a reviewer (git-ignored, as test/reader-browser.test.ts writes them). */
const SCREENSHOTS = path.join(import.meta.dirname, '..', 'test-artifacts', 'screenshots');
const fixtureOnly = it.skipIf(Boolean(REAL_REPO));

const DESKTOP_SIZE = { width: 1280, height: 800 };
const MOBILE_SIZE = { width: 390, height: 844 };
const DESKTOP: BrowserContextOptions = { viewport: DESKTOP_SIZE };
/**
 * axe checks the content of every page, and the whole page (header, page tree with other
 * groups open, footer: the same layout on every page) on every LAYOUT_AXE_EVERY-th page, at
 * both widths: axe on a whole page costs about a second on a loaded machine.
 */
const LAYOUT_AXE_EVERY = 8;
/** Requests in flight while checking links from Node. */
const LINK_CHECKS_IN_FLIGHT = 8;
/** A real repository is walked with more time than the fixture. */
const WALK_TIMEOUT = REAL_REPO ? 1_800_000 : 150_000;

const api = useTestApi();
const server = useGitServer();

/** Feeds the git queue to the worker until the space's import has finished (a large repository: many polls). */
const settleImport = async (org: TestOrg, spaceId: string) => (await settleGit(api, org.admin.token, spaceId, 600)).operations.last;

/** A bare repository on the loopback Git server: the generated fixture, or a copy of IMPORTED_DOCS_REPO. */
async function pushRepository(): Promise<{ url: string; ref: string }> {
  const name = `imported-docs-${Date.now()}`;
  if (!REAL_REPO) {
    await createRepo(server, name, importedDocsRepository());
    return { url: `${server.url}/${name}.git`, ref: 'refs/heads/main' };
  }
  const bare = path.join(server.root, `${name}.git`);
  await git(['clone', '--bare', '--quiet', path.resolve(REAL_REPO), bare], os.tmpdir());
  const ref = (await git(['symbolic-ref', 'HEAD'], bare)).trim();
  return { url: `${server.url}/${name}.git`, ref };
}

/** What one page shows, read in the browser. */
interface Visit {
  url: string;
  status: number;
  links: string[];
  images: string[];
  ids: string[];
}

describe.skipIf(!HAS_CHROMIUM)('reader on imported GitBook documentation, every page in Chromium', () => {
  let org: TestOrg;
  let spaceId: string;
  let site: { id: string; url: string };
  let pageUrls: string[] = [];
  let browser: Browser;
  const visits = new Map<string, Visit>();

  beforeAll(async () => {
    org = await newOrg();
    const repo = await pushRepository();
    spaceId = (await createSpace(api, org, { title: 'Widget Platform' })).id;
    const started = await api.request('POST', `/spaces/${spaceId}/git/import`, { token: org.admin.token, body: repo });
    expect(started.status).toBe(204);
    const last = await settleImport(org, spaceId);
    expect(last, JSON.stringify(last)).toMatchObject({ operation: 'import', status: 'succeeded' });
    site = await publishedSite(api, org, [spaceId], 'public');
    // Every readable page of the site, as the sitemap lists them.
    const sitemap = await (await fetch(`${site.url}/sitemap.xml`)).text();
    pageUrls = Array.from(new DOMParser().parseFromString(sitemap, 'text/xml').getElementsByTagName('loc'), (loc) => loc.textContent ?? '');
    if (REAL_REPO) console.info(`${REAL_REPO}: ${pageUrls.length} pages`);
    browser = await launchChromium();
  }, WALK_TIMEOUT);
  afterAll(async () => {
    await browser?.close();
  });

  /** One page per viewport, reused from URL to URL; console errors and uncaught exceptions go to `errors`. */
  const openPage = async (options: BrowserContextOptions, errors: string[]) => {
    const context = await browser.newContext(options);
    const page = await context.newPage();
    page.on('console', (m) => { if (m.type() === 'error') errors.push(`${page.url()}: ${m.text()}`); });
    page.on('pageerror', (e) => errors.push(`${page.url()}: ${e.message}`));
    return page;
  };

  /** What the open document shows: its links, images and ids, and whether its page is marked in the tree, visible, every group around it open. */
  const readPage = (page: Page) => page.evaluate(() => {
    const current = document.querySelector<HTMLElement>('nav[aria-label="Pages"] a[aria-current="page"]');
    let tree = current ? 'ok' : 'no page marked current in the page tree';
    for (let details = current?.parentElement?.closest('details'); details; details = details.parentElement?.closest('details')) {
      if (!details.open) tree = `the group of "${current!.textContent}" is closed`;
    }
    if (current && tree === 'ok' && current.getClientRects().length === 0) tree = 'the current page is hidden in the tree';
    return {
      tree,
      links: Array.from(document.querySelectorAll<HTMLAnchorElement>('a[href]'), (a) => a.href),
      images: Array.from(document.images, (img) => img.currentSrc || img.src),
      ids: Array.from(document.querySelectorAll('[id]'), (el) => el.id),
    };
  });

  type ApiPage = { type: string; title: string; path: string; href?: string; git?: { path: string }; pages: ApiPage[] };
  const apiPages = async () => {
    const all: ApiPage[] = [];
    const walk = (list: ApiPage[]) => list.forEach((p) => { all.push(p); walk(p.pages); });
    walk((await api.request('GET', `/spaces/${spaceId}/content/pages`, { token: org.admin.token })).body.pages);
    return all;
  };

  fixtureOnly('imports every listed file as a page; a file listed twice and a URL stay link pages', async () => {
    const all = await apiPages();
    expect(all.filter((p) => p.type === 'document').map((p) => p.git?.path).sort()).toEqual(FIXTURE_PAGES.map((p) => p.path).sort());
    expect(all.filter((p) => p.type === 'link').map((p) => [p.title, p.href])).toEqual([
      [EXTERNAL_ENTRY.title, EXTERNAL_ENTRY.href], [LISTED_TWICE.title, LISTED_TWICE.path],
    ]);
    expect(pageUrls).toHaveLength(FIXTURE_PAGES.length);
  });

  /**
   * One page walks every URL at 1280x800, then looks at the same document at 390x844 (the
   * layout follows the viewport's width: no second rendering of each page by the server).
   */
  it('every page answers 200 with no console errors and no serious or critical axe violations in its content (its layout on every 8th page); at 1280x800 its place in the tree is open, at 390x844 its title is on the first screen', async () => {
    expect(pageUrls.length).toBeGreaterThan(0);
    const errors: string[] = [];
    const problems: string[] = [];
    const page = await openPage(DESKTOP, errors);
    for (const [i, url] of pageUrls.entries()) {
      await page.setViewportSize(DESKTOP_SIZE);
      // The stylesheet and the deferred script have run at DOMContentLoaded; images are checked from Node.
      const response = await page.goto(url, { waitUntil: 'domcontentloaded' });
      const status = response?.status() ?? 0;
      if (status !== 200) problems.push(`${url}: HTTP ${status}`);
      const { tree, ...seen } = await readPage(page);
      if (tree !== 'ok') problems.push(`${url}: ${tree}`);
      visits.set(url, { url, status, ...seen });
      const layoutToo = i % LAYOUT_AXE_EVERY === 0;
      for (const violation of await axeViolations(page, layoutToo ? undefined : 'main')) problems.push(`${url}: axe at 1280 px: ${violation}`);

      await page.setViewportSize(MOBILE_SIZE);
      const title = await page.locator('main h1').first().boundingBox();
      if (!title) problems.push(`${url}: no title`);
      else if (title.y + title.height > MOBILE_SIZE.height) problems.push(`${url}: at 390 px the title ends ${Math.round(title.y + title.height)} px down`);
      if (layoutToo) for (const violation of await axeViolations(page)) problems.push(`${url}: axe at 390 px: ${violation}`);
    }
    await page.context().close();
    expect({ problems, errors }).toEqual({ problems: [], errors: [] });
  }, WALK_TIMEOUT);

  it('every link inside the site and every image answers 200; links to anchors find them', async () => {
    expect(visits.size).toBe(pageUrls.length);
    const origin = new URL(site.url).origin;
    const sitePrefix = `${site.url}/`;
    const broken: string[] = [];
    // Each target once, with the first page that points at it (for the message).
    const targets = new Map<string, string>();
    const anchors: { from: string; page: string; id: string }[] = [];
    for (const visit of visits.values()) {
      for (const raw of [...visit.links, ...visit.images]) {
        const url = new URL(raw);
        if (url.origin !== origin) continue;
        if (!`${url.origin}${url.pathname}/`.startsWith(sitePrefix)) broken.push(`${visit.url}: links outside the site: ${raw}`);
        const bare = `${url.origin}${url.pathname}${url.search}`;
        if (url.hash.length > 1) anchors.push({ from: visit.url, page: bare, id: decodeURIComponent(url.hash.slice(1)) });
        // Pages the walk opened answered 200 there (or failed there).
        if (!targets.has(bare) && !visits.has(bare)) targets.set(bare, visit.url);
      }
    }
    const queue = [...targets];
    await Promise.all(Array.from({ length: LINK_CHECKS_IN_FLIGHT }, async () => {
      for (let next = queue.shift(); next; next = queue.shift()) {
        const [target, from] = next;
        const res = await fetch(target, { redirect: 'manual' });
        await res.arrayBuffer();
        if (res.status !== 200) broken.push(`${from}: ${target} answers ${res.status}`);
      }
    }));
    for (const anchor of anchors) {
      const ids = visits.get(anchor.page)?.ids;
      // Only pages the walk opened know their ids (other targets are files and exports).
      if (ids && !ids.includes(anchor.id)) broken.push(`${anchor.from}: ${anchor.page}#${anchor.id} has no such anchor`);
    }
    expect([...new Set(broken)]).toEqual([]);
  }, WALK_TIMEOUT);

  fixtureOnly('the entry of a file listed twice opens that page; the URL entry leaves the site', async () => {
    const listed = (await apiPages()).find((p) => p.type === 'document' && p.git?.path === LISTED_TWICE.path)!;
    const page = await (await browser.newContext(DESKTOP)).newPage();
    await page.goto(pageUrls[0]!);
    const tree = page.getByRole('navigation', { name: 'Pages' });
    expect(await tree.getByRole('link', { name: LISTED_TWICE.title }).getAttribute('href')).toBe(`/s/${site.id}/${listed.path}`);
    expect(await tree.getByRole('link', { name: `${EXTERNAL_ENTRY.title} ↗` }).getAttribute('href')).toBe(EXTERNAL_ENTRY.href);
    // The page it opens, three groups deep, for a reviewer to look at (git-ignored).
    await tree.getByRole('link', { name: LISTED_TWICE.title }).click();
    await page.waitForURL(`${site.url}/${listed.path}`);
    expect(await tree.locator('a[aria-current="page"]').innerText()).toBe(listed.title);
    mkdirSync(SCREENSHOTS, { recursive: true });
    await page.screenshot({ path: path.join(SCREENSHOTS, 'imported-nested-page-desktop.png') });
    await page.context().close();
  });
});
