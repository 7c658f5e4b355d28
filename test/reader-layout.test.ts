import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContextOptions, Page } from 'playwright-core';
import { newOrg, startTestApi, type TestApi, type TestOrg } from './support/api.ts';
import { publishedSite, spaceWithPages } from './support/reader-site.ts';
import { editContent, pagesByTitle } from './support/published-content.ts';
import { DESKTOP, HAS_CHROMIUM, PHONE, launchChromium } from './support/chromium.ts';

/**
 * The published site's layout as a reader sees it in Chromium: where they are in a long page
 * tree and a long outline, and a page's headings. (Budgets, axe and the main views:
 * test/reader-browser.test.ts.)
 */

/** Section headings at the three levels the public document has (heading-1 to 3: h2 to h4), each opening its text. */
const HEADINGS_MARKDOWN = `# Headings

Intro.

# Install

Install text.

## On Linux

Linux text.

### With a package manager

Package text.
`;

/** An outline longer than a laptop's screen. */
const OUTLINE_MARKDOWN = `# Outline

${Array.from({ length: 30 }, (_, i) => `## Step ${i + 1}\n\nStep ${i + 1} text.\n`).join('\n')}`;

/** A table whose wordy columns a phone would squeeze to a word or two a line, and a narrow one that fits any screen. */
const TABLES_MARKDOWN = `# Tables

| Setting | What it changes | When to use it | Notes |
| --- | --- | --- | --- |
| retention | How long the widget keeps old backups before deleting them for good | When disks fill up faster than expected on busy servers | Counted in days from the backup's creation, not from its last use |
| concurrency | How many uploads the widget runs at the same time | When the network is fast but each single upload is slow | Higher values use more memory on the uploading machine |

A narrow one, and another right after it:

| Key | Value |
| --- | --- |
| port | 8080 |

| Flag | Default |
| --- | --- |
| verbose | off |
`;

/** Enough pages that the last ones sit far below the first screen of the page tree. */
const MANY_PAGES = Array.from({ length: 40 }, (_, i) => `# Reference ${i + 1}\n\nReference text ${i + 1}.\n`);

/** Moves the page titled `child` under the one titled `parent`, through a merged change request. */
async function nest(api: TestApi, org: TestOrg, spaceId: string, child: string, parent: string) {
  const cr = await api.request('POST', `/spaces/${spaceId}/change-requests`, { token: org.admin.token, body: { subject: 'Nest' } });
  const pages = await pagesByTitle(api, org, spaceId, cr.body.id);
  await editContent(api, org, spaceId, cr.body.id, [{ operation: 'update_page', page: pages[child]!.id, into: pages[parent]!.id }]);
  expect((await api.request('POST', `/spaces/${spaceId}/change-requests/${cr.body.id}/merge`, { token: org.admin.token })).status).toBe(200);
}

describe.skipIf(!HAS_CHROMIUM)('reader layout in Chromium', () => {
  let api: TestApi;
  let browser: Browser;
  let site: { url: string };
  let twoSpaces: { url: string };

  beforeAll(async () => {
    api = await startTestApi();
    const org = await newOrg();
    const space = await spaceWithPages(api, org, 'Guide', [HEADINGS_MARKDOWN, OUTLINE_MARKDOWN, TABLES_MARKDOWN, ...MANY_PAGES]);
    await nest(api, org, space.id, 'Reference 2', 'Reference 1');
    site = await publishedSite(api, org, [space.id], 'public');
    const changelog = await spaceWithPages(api, org, 'Changelog', ['# Releases\n\nVersion 1.\n']);
    twoSpaces = await publishedSite(api, org, [space.id, changelog.id], 'public');
    browser = await launchChromium();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await api?.close();
  });

  const open = async (path: string, options: BrowserContextOptions = DESKTOP, base = site.url): Promise<Page> => {
    const page = await (await browser.newContext(options)).newPage();
    await page.goto(`${base}${path}`, { waitUntil: 'load' });
    return page;
  };

  /** Whether `item` is entirely inside `box` (its scrolling list) and on the screen. */
  const shownIn = (page: Page, box: string, item: string) => page.evaluate(([boxSel, itemSel]) => {
    const b = document.querySelector(boxSel)!.getBoundingClientRect();
    const r = document.querySelector(itemSel)!.getBoundingClientRect();
    return r.height > 0 && r.top >= b.top && r.bottom <= Math.min(b.bottom, innerHeight);
  }, [box, item] as const);

  it('the page tree shows the page being read: a page far down the tree is scrolled into view, on a laptop and in the phone menu, the page itself unmoved', async () => {
    const current = 'aside.sidebar a[aria-current=page]';
    const desktop = await open('/reference-38');
    expect(await desktop.locator(current).innerText()).toBe('Reference 38');
    await expect.poll(() => shownIn(desktop, 'aside.sidebar', current)).toBe(true);
    expect(await desktop.evaluate(() => scrollY)).toBe(0);
    // A page already in view does not move the tree.
    const first = await open('/headings');
    expect(await first.locator('aside.sidebar').evaluate((el) => el.scrollTop)).toBe(0);
    await desktop.context().close();
    await first.context().close();

    const phone = await open('/reference-38', PHONE);
    await phone.getByRole('button', { name: 'Menu' }).click();
    await expect.poll(() => shownIn(phone, 'aside.sidebar', current)).toBe(true);
    await phone.context().close();
  });

  it('"On this page" keeps the heading being read in view while the reader scrolls down a long outline', async () => {
    const page = await open('/outline', { viewport: { width: 1280, height: 600 } });
    const toc = 'aside.toc';
    expect(await page.locator(toc).evaluate((el) => el.scrollHeight > el.clientHeight), 'the outline is longer than the screen').toBe(true);
    await page.locator('#step-28').scrollIntoViewIfNeeded();
    await page.mouse.wheel(0, 200);
    await expect.poll(() => page.locator(`${toc} a[aria-current]`).innerText()).toMatch(/^Step (2[89]|30)$/);
    await expect.poll(() => shownIn(page, toc, `${toc} a[aria-current]`)).toBe(true);
    await page.context().close();
  });

  it('headings step down in size (h2 > h3 > h4 > text) and sit nearer the section they open than the one before, on a laptop and a phone', async () => {
    for (const options of [DESKTOP, PHONE]) {
      const page = await open('/headings', options);
      const measured = await page.evaluate(() => ['h2', 'h3', 'h4'].map((tag) => {
        const h = document.querySelector(`article ${tag}`)!;
        const size = (el: Element) => parseFloat(getComputedStyle(el).fontSize);
        const box = h.getBoundingClientRect();
        return {
          tag,
          size: size(h),
          text: size(h.nextElementSibling!),
          above: box.top - h.previousElementSibling!.getBoundingClientRect().bottom,
          below: h.nextElementSibling!.getBoundingClientRect().top - box.bottom,
        };
      }));
      const [h2, h3, h4] = measured as [typeof measured[0], typeof measured[0], typeof measured[0]];
      const label = `${options.viewport.width}px: ${JSON.stringify(measured)}`;
      expect(h2.size, label).toBeGreaterThan(h3.size);
      expect(h3.size, label).toBeGreaterThan(h4.size);
      // The smallest heading still reads as a heading, not as bold text.
      expect(h4.size, label).toBeGreaterThanOrEqual(h4.text * 1.05);
      for (const h of measured) expect(h.below, `${h.tag} ${label}`).toBeLessThan(h.above);
      await page.context().close();
    }
  });

  it("breadcrumbs say where a page sits, never the space's internal title on a one-space site: none on a top-level page, the parent on a subpage; with two spaces the space still leads", async () => {
    const crumbs = (page: Page) => page.locator('nav.breadcrumbs li').allInnerTexts();
    const top = await open('/reference-1');
    expect(await top.locator('h1').innerText()).toBe('Reference 1');
    expect(await top.locator('nav.breadcrumbs').count()).toBe(0);
    const sub = await open('/reference-1/reference-2');
    expect(await crumbs(sub)).toEqual(['Reference 1']);
    const shared = await open('/reference-1/reference-2', DESKTOP, twoSpaces.url);
    expect(await crumbs(shared)).toEqual(['Guide', 'Reference 1']);
    for (const page of [top, sub, shared]) await page.context().close();
  });

  it("on a touch screen every heading shows its # link (no hover to reveal it), inside the screen at the heading's end, and it leads to the heading", async () => {
    const page = await open('/headings', PHONE);
    const anchors = await page.locator('article :is(h2,h3,h4) > a.anchor').evaluateAll((links) => links.map((a) => {
      const r = a.getBoundingClientRect();
      const h = a.parentElement!.getBoundingClientRect();
      return { opacity: Number(getComputedStyle(a).opacity), left: r.left, right: r.right, width: r.width, atEnd: r.right >= h.right - 1 };
    }));
    expect(anchors).toHaveLength(3);
    for (const a of anchors) {
      expect(a.opacity, JSON.stringify(a)).toBe(1);
      expect(a.left, JSON.stringify(a)).toBeGreaterThanOrEqual(0);
      expect(a.right, JSON.stringify(a)).toBeLessThanOrEqual(390);
      expect(a.atEnd, JSON.stringify(a)).toBe(true);
    }
    await page.locator('h3 > a.anchor').tap();
    await page.waitForURL(/#on-linux$/);
    // A laptop keeps the heading plain until the pointer is over it.
    const desktop = await open('/headings');
    expect(await desktop.locator('h3 > a.anchor').evaluate((a) => getComputedStyle(a).opacity)).toBe('0');
    for (const p of [page, desktop]) await p.context().close();
  });

  it('on a laptop a page without an outline sits centred beside the page tree, at the same readable width; a page with one keeps its column between the tree and the outline', async () => {
    const boxes = (page: Page) => page.evaluate(() => Object.fromEntries(['aside.sidebar', 'main', 'aside.toc'].map((s) => {
      const r = document.querySelector(s)?.getBoundingClientRect();
      return [s, r ? { left: r.left, right: r.right, width: r.width } : null];
    })));
    const [plainPage, headedPage] = [await open('/reference-1'), await open('/headings')];
    const [plain, headed] = [await boxes(plainPage), await boxes(headedPage)];
    const label = JSON.stringify({ plain, headed });
    const [sidebar, main] = [plain['aside.sidebar']!, plain.main!];
    expect(plain['aside.toc'], label).toBeNull();
    // At its usual width (52rem), with as much room on its left as on its right: no blank band where the outline would be.
    expect(main.width, label).toBeCloseTo(832, 0);
    expect(Math.abs((main.left - sidebar.right) - (1280 - main.right)), label).toBeLessThanOrEqual(1);
    expect(main.left - sidebar.right, label).toBeGreaterThan(40);
    // With headings: the column fills the space between the page tree and "On this page", as before.
    expect(headed.main!.left, label).toBeCloseTo(headed['aside.sidebar']!.right, 0);
    expect(headed.main!.right, label).toBeCloseTo(headed['aside.toc']!.left, 0);
    expect(headed.main!.width, label).toBeCloseTo(760, 0);
    for (const page of [plainPage, headedPage]) await page.context().close();
  });

  it('on a phone a wordy table keeps readable columns and scrolls sideways in its own box (by keyboard too), the page never; a narrow table is as on a laptop', async () => {
    const measure = (page: Page) => page.evaluate(() => {
      const [wordy, narrow] = Array.from(document.querySelectorAll<HTMLElement>('main div.table'));
      return {
        rows: Array.from(wordy!.querySelectorAll('tbody tr')).map((tr) => tr.getBoundingClientRect().height),
        cells: Array.from(wordy!.querySelectorAll('tbody td')).map((td) => td.getBoundingClientRect().width),
        wordy: { scroll: wordy!.scrollWidth, client: wordy!.clientWidth },
        narrow: { scroll: narrow!.scrollWidth, client: narrow!.clientWidth, width: narrow!.querySelector('table')!.getBoundingClientRect().width },
        page: document.documentElement.scrollWidth,
      };
    });
    const desktop = await open('/tables');
    const wide = await measure(desktop);
    // A laptop's column still holds the whole wordy table, as before.
    expect(wide.wordy.scroll, JSON.stringify(wide)).toBeLessThanOrEqual(wide.wordy.client);

    const phone = await open('/tables', PHONE);
    const small = await measure(phone);
    const label = JSON.stringify(small);
    // Four lines of text at most (1.65 line height), not a word or two a line.
    for (const height of small.rows) expect(height, label).toBeLessThan(4 * 16 * 1.65 + 16);
    for (const width of small.cells.filter((_, i) => i % 4 > 0)) expect(width, label).toBeGreaterThanOrEqual(200);
    expect(small.wordy.scroll, label).toBeGreaterThan(small.wordy.client);
    expect(small.page, label).toBe(390);
    expect(small.narrow.scroll, label).toBeLessThanOrEqual(small.narrow.client);
    expect(small.narrow.width, label).toBeCloseTo(wide.narrow.width, 0);
    // The table is a tab stop; arrow keys scroll it, not the page.
    const wordy = phone.locator('main div.table').first();
    await expect.poll(() => wordy.getAttribute('tabindex')).toBe('0');
    await wordy.focus();
    for (let i = 0; i < 5; i++) await phone.keyboard.press('ArrowRight');
    await expect.poll(() => wordy.evaluate((el) => el.scrollLeft)).toBeGreaterThan(0);
    expect(await phone.evaluate(() => scrollX)).toBe(0);
    for (const page of [desktop, phone]) await page.context().close();
  });

  it('two tables in a row stand apart as other blocks do, on a laptop and a phone', async () => {
    for (const [name, options] of [['laptop', DESKTOP], ['phone', PHONE]] as const) {
      const page = await open('/tables', options);
      const gap = await page.evaluate(() => {
        const [, narrow, next] = Array.from(document.querySelectorAll<HTMLElement>('main div.table'));
        return next!.getBoundingClientRect().top - narrow!.getBoundingClientRect().bottom;
      });
      // 1rem, as between a code block or a hint and what follows it (they touched: 0 px).
      expect(gap, name).toBeGreaterThanOrEqual(16);
      await page.context().close();
    }
  });
});
