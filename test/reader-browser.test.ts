import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContextOptions, Page } from 'playwright-core';
import { newOrg, startTestApi, type TestApi, type TestOrg } from './support/api.ts';
import { CONFIG_MARKDOWN, GUIDE_MARKDOWN, IMAGES_MARKDOWN, publishedSite, spaceWithPages } from './support/reader-site.ts';
import { pngFile } from './support/png.ts';
import { editContent, pagesByTitle, spaceWithChangeRequest } from './support/published-content.ts';
import { signVisitorToken } from '../shared/reader/visitor.ts';
import { CHROMIUM, HAS_CHROMIUM, launchChromium } from './support/chromium.ts';
import { axeViolations } from './support/axe.ts';

const IN_CI = process.env.CI === 'true';

/** Screenshots of the main views, for a reviewer to look at (git-ignored, never committed). */
const SCREENSHOTS = join(import.meta.dirname, '..', 'test-artifacts', 'screenshots');

/** The reader's budgets (docs/reader.md): HTML + CSS + JS of a page, gzip-compressed, images aside. */
const PAGE_BUDGET_BYTES = 100 * 1024;

describe.runIf(IN_CI && !HAS_CHROMIUM)('reader site in headless Chromium (CI)', () => {
  it('has Chromium installed (CI=true: a missing browser fails the run instead of skipping)', () => {
    expect.fail(`${CHROMIUM} is missing: .ci/run installs Debian's chromium`);
  });
});

describe.skipIf(!HAS_CHROMIUM)('reader site in headless Chromium', () => {
  let api: TestApi;
  let org: TestOrg;
  let browser: Browser;
  let page: Page;
  let space: { id: string };

  beforeAll(async () => {
    api = await startTestApi();
    org = await newOrg();
    space = await spaceWithPages(api, org, 'Guide', [GUIDE_MARKDOWN, CONFIG_MARKDOWN]);
    browser = await launchChromium();
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

/** A long page: enough sections to scroll "On this page" through, and a nested page under it. */
const LONG_MARKDOWN = `# Operations

${['Backups', 'Monitoring', 'Upgrades', 'Scaling'].map((t) => `## ${t}\n\n${Array.from({ length: 8 }, (_, i) => `${t} paragraph ${i + 1}: the widget keeps running while you read this.`).join('\n\n')}\n`).join('\n')}`;

/** A table that fits a desktop column but not a phone's, and one that fits neither. */
const TABLES_MARKDOWN = `# Tables

| Setting | Default | Variable | Meaning |
| --- | --- | --- | --- |
| port | 8080 | WIDGET_PORT | The TCP port the widget listens on |

| ${Array.from({ length: 12 }, (_, i) => `Column ${i + 1} heading`).join(' | ')} |
| ${Array.from({ length: 12 }, () => '---').join(' | ')} |
| ${Array.from({ length: 12 }, (_, i) => `a long cell value ${i + 1}`).join(' | ')} |
`;

describe.skipIf(!HAS_CHROMIUM)('reader experience and budgets in Chromium', () => {
  let api: TestApi;
  let browser: Browser;
  let site: { id: string; url: string; base: string };
  const errors: string[] = [];

  beforeAll(async () => {
    api = await startTestApi();
    const org = await newOrg();
    const space = await spaceWithPages(api, org, 'Guide', [GUIDE_MARKDOWN, CONFIG_MARKDOWN, IMAGES_MARKDOWN, LONG_MARKDOWN, TABLES_MARKDOWN], [
      { name: 'dashboard.png', contentType: 'image/png', bytes: pngFile(1280, 720, 5) },
    ]);
    site = await publishedSite(api, org, [space.id], 'public');
    browser = await launchChromium();
    mkdirSync(SCREENSHOTS, { recursive: true });
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await api?.close();
  });

  const DESKTOP = { viewport: { width: 1280, height: 800 } };
  const MOBILE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 };
  /** A page that records console errors and uncaught exceptions into `errors`. */
  const open = async (options: BrowserContextOptions = DESKTOP) => {
    const context = await browser.newContext(options);
    const page = await context.newPage();
    page.on('console', (m) => { if (m.type() === 'error') errors.push(`${page.url()}: ${m.text()}`); });
    page.on('pageerror', (e) => errors.push(`${page.url()}: ${e.message}`));
    return page;
  };

  /** HTML plus the CSS and JS the page loads (same origin), each gzip-compressed as a server would send it. */
  const compressedWeight = async (page: Page) => {
    const urls = await page.evaluate(() => [location.href, ...Array.from(document.querySelectorAll<HTMLLinkElement>('link[rel=stylesheet]')).map((l) => l.href), ...Array.from(document.scripts).filter((s) => s.src).map((s) => s.src)]);
    let total = 0;
    for (const url of urls) total += gzipSync(Buffer.from(await (await fetch(url)).arrayBuffer())).length;
    return { total, files: urls.length };
  };

  const views = () => [`${site.url}/getting-started`, `${site.url}/screenshots`, `${site.url}/operations`, `${site.url}?q=widget`];

  it('main views: no console errors, no serious or critical axe violations, at most 100 KB compressed; screenshots written', async () => {
    for (const [label, options] of [['desktop', DESKTOP], ['mobile', MOBILE]] as const) {
      for (const [i, url] of views().entries()) {
        const page = await open(options);
        await page.goto(url, { waitUntil: 'load' });
        expect(await axeViolations(page), `${label} ${url}`).toEqual([]);
        const weight = await compressedWeight(page);
        expect(weight.files, url).toBe(3);
        expect(weight.total, `${url}: ${weight.total} bytes`).toBeLessThanOrEqual(PAGE_BUDGET_BYTES);
        await page.screenshot({ path: join(SCREENSHOTS, `${['page', 'code-and-image', 'long-page', 'search'][i]}-${label}.png`), fullPage: false });
        await page.context().close();
      }
    }
    const dark = await open({ ...DESKTOP, colorScheme: 'dark' });
    await dark.goto(`${site.url}/screenshots`);
    await dark.screenshot({ path: join(SCREENSHOTS, 'code-and-image-desktop-dark.png') });
    await dark.context().close();
    expect(errors).toEqual([]);
  }, 180_000);

  it('images take their space before they load: no layout shift', async () => {
    const page = await open({ viewport: { width: 1280, height: 400 } });
    await page.goto(`${site.url}/screenshots`);
    const img = page.locator('article img');
    const box = await img.boundingBox();
    // The box is sized from width/height before any byte of the image arrived.
    expect(box!.width / box!.height).toBeCloseTo(1280 / 720, 1);
    await img.scrollIntoViewIfNeeded();
    await expect.poll(() => img.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth)).toBe(1280);
    const shift = await page.evaluate(() => new Promise<number>((resolve) => {
      let sum = 0;
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries() as (PerformanceEntry & { value: number; hadRecentInput: boolean })[]) if (!entry.hadRecentInput) sum += entry.value;
      }).observe({ type: 'layout-shift', buffered: true });
      setTimeout(() => resolve(sum), 300);
    }));
    expect(shift).toBeLessThan(0.01);
    await page.context().close();
  });

  it('every page reads with JavaScript off: content, navigation and the search form', async () => {
    for (const url of views()) {
      const page = await open({ ...DESKTOP, javaScriptEnabled: false });
      const res = await page.goto(url);
      expect(res?.status(), url).toBe(200);
      expect(await page.locator('main h1').innerText(), url).not.toBe('');
      expect(await page.getByRole('navigation', { name: 'Pages' }).getByRole('link').count(), url).toBeGreaterThan(2);
      await page.context().close();
    }
    const page = await open({ ...DESKTOP, javaScriptEnabled: false });
    await page.goto(`${site.url}/getting-started`);
    await page.getByRole('searchbox', { name: 'Search' }).fill('flux capacitor');
    await page.getByRole('searchbox', { name: 'Search' }).press('Enter');
    await page.waitForURL(/\?q=flux/);
    expect(await page.locator('.search-results a').first().innerText()).toBe('Configuration');
    expect(await page.locator('.search-results mark').first().innerText()).toMatch(/flux/i);
    await page.context().close();
  });

  it('at 390x844 the title is on the first screen and the menu opens the page tree', async () => {
    const page = await open(MOBILE);
    await page.goto(`${site.url}/configuration`);
    const title = await page.locator('main h1').boundingBox();
    expect(title!.y + title!.height).toBeLessThan(844);
    // With JavaScript the page tree is the drawer's alone, not repeated after the page.
    const sidebar = page.locator('aside.sidebar');
    await expect.poll(() => sidebar.isVisible()).toBe(false);
    const menu = page.getByRole('button', { name: /menu/i });
    await menu.click();
    expect(await menu.getAttribute('aria-expanded')).toBe('true');
    const drawer = (await sidebar.boundingBox())!;
    expect(drawer.y).toBeLessThan(120);
    await page.screenshot({ path: join(SCREENSHOTS, 'menu-mobile.png') });
    await sidebar.getByRole('link', { name: 'Screenshots' }).click();
    await page.waitForURL(`${site.url}/screenshots`);
    expect(await page.locator('main h1').innerText()).toBe('Screenshots');
    await page.context().close();
  });

  it('at 390x844 without JavaScript the page tree follows the page, across the full width', async () => {
    const page = await open({ ...MOBILE, javaScriptEnabled: false });
    await page.goto(`${site.url}/configuration`);
    const title = (await page.locator('main h1').boundingBox())!;
    const sidebar = (await page.locator('aside.sidebar').boundingBox())!;
    expect(sidebar.y).toBeGreaterThan(title.y);
    expect(sidebar.width).toBe(390);
    await page.context().close();
  });

  it('dark mode follows the system; the toggle switches it and is remembered', async () => {
    const context = await browser.newContext({ ...DESKTOP, colorScheme: 'dark' });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
    const background = () => page.locator('body').evaluate((el) => getComputedStyle(el).backgroundColor);
    await page.goto(`${site.url}/screenshots`);
    expect(await background()).toBe('rgb(13, 17, 23)');
    // Code follows: the dark token colour of the theme.
    const keyword = page.locator('.shiki .line span').first();
    const darkColor = await keyword.evaluate((el) => getComputedStyle(el).color);
    await page.getByRole('button', { name: 'Switch to light mode' }).click();
    await expect.poll(background).toBe('rgb(255, 255, 255)');
    expect(await keyword.evaluate((el) => getComputedStyle(el).color)).not.toBe(darkColor);
    await page.reload();
    expect(await page.locator('html').getAttribute('data-theme')).toBe('light');
    await expect.poll(background).toBe('rgb(255, 255, 255)');
    expect(await page.getByRole('button', { name: 'Switch to dark mode' }).isVisible()).toBe(true);
    // The reload was answered 304: the cached page keeps its own policy (nothing blocked).
    expect(errors).toEqual([]);
    await context.close();
  });

  it('instant search: / and Ctrl-K focus the box, results come grouped with the terms marked', async () => {
    const page = await open();
    await page.goto(`${site.url}/getting-started`);
    const box = page.getByRole('searchbox', { name: 'Search' });
    await page.locator('body').press('/');
    expect(await box.evaluate((el) => el === document.activeElement)).toBe(true);
    await page.locator('main h1').click();
    await page.keyboard.press('Control+k');
    expect(await box.evaluate((el) => el === document.activeElement)).toBe(true);
    await box.pressSequentially('flux');
    const panel = page.getByRole('region', { name: 'Search results' });
    await expect.poll(() => panel.isVisible()).toBe(true);
    await expect.poll(() => panel.locator('h2').first().textContent()).toBe('Configuration');
    expect(await panel.locator('mark').first().innerText()).toMatch(/^flux$/i);
    await page.screenshot({ path: join(SCREENSHOTS, 'instant-search-desktop.png') });
    // The same URL as before: nothing reloaded while typing.
    expect(page.url()).toBe(`${site.url}/getting-started`);
    await box.press('ArrowDown');
    await page.keyboard.press('Enter');
    await page.waitForURL(`${site.url}/configuration`);
    await page.context().close();
  });

  it('code blocks have a copy button; "On this page" marks the heading being read', async () => {
    const context = await browser.newContext(DESKTOP);
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    const page = await context.newPage();
    await page.goto(`${site.url}/screenshots`);
    await page.locator('figure.code').getByRole('button', { name: 'Copy' }).click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toContain('const answer = 40 + 2;');

    await page.goto(`${site.url}/operations`);
    const toc = page.getByRole('navigation', { name: 'On this page' });
    expect(await toc.getByRole('link').allInnerTexts()).toEqual(['Backups', 'Monitoring', 'Upgrades', 'Scaling']);
    await page.evaluate(() => document.getElementById('upgrades')!.scrollIntoView());
    await expect.poll(() => toc.locator('a[aria-current]').innerText()).toBe('Upgrades');
    await context.close();
  });

  it('a lone previous or next card takes its half of the row, flush with the content edge', async () => {
    const page = await open(DESKTOP);
    await page.goto(`${site.url}/getting-started`);
    const nav = (await page.locator('nav.pagination').boundingBox())!;
    const next = (await page.locator('nav.pagination a[rel=next]').boundingBox())!;
    expect(await page.locator('nav.pagination a[rel=prev]').count()).toBe(0);
    expect(Math.abs(next.x + next.width - (nav.x + nav.width))).toBeLessThan(1);
    expect(Math.abs(next.width - (nav.width - 16) / 2)).toBeLessThan(1);
    await page.context().close();
  });

  it('only regions that overflow are tab stops, again once the window narrows', async () => {
    const page = await open(DESKTOP);
    await page.goto(`${site.url}/tables`);
    const [narrow, wide] = [page.locator('div.table').nth(0), page.locator('div.table').nth(1)];
    await expect.poll(() => narrow.getAttribute('tabindex')).toBeNull();
    expect(await wide.getAttribute('tabindex')).toBe('0');
    // Both stay named regions; Tab goes from the page to the wide table, past the narrow one.
    expect(await narrow.getAttribute('role')).toBe('region');
    await page.locator('main h1').click();
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toMatch(/^Table: Column 1 heading/);
    await page.setViewportSize({ width: 390, height: 844 });
    await expect.poll(() => narrow.getAttribute('tabindex')).toBe('0');
    await page.context().close();
  });
});

/** Blocks as a reader of GitBook-shaped pages sees them: expandables holding code, rich figure captions, task lists, columns, line numbers. */
const BLOCKS_MARKDOWN = `# Reader blocks

<figure><img src=".gitbook/assets/diagram.png" alt="Architecture diagram"><figcaption><p>The <strong>diagram</strong>, see <a href="configuration.md">the configuration</a></p></figcaption></figure>

<figure><picture><source srcset=".gitbook/assets/flow-dark.png" media="(prefers-color-scheme: dark)"><img src=".gitbook/assets/flow.png" alt="Request flow"></picture><figcaption><p>Request flow</p></figcaption></figure>

<details>

<summary>Defaults file</summary>

\`\`\`yaml
port: 8080
workers: 4
\`\`\`

</details>

Widgets start in a second.[^speed] See the note.[^speed]

Download https://downloads.example.com/widget/releases/2026/stable/widget-linux-amd64-2.0.0.tar.gz or set \`WIDGET_EXTRA_LONG_CONFIGURATION_VARIABLE_NAME_FOR_THE_SCHEDULER=1\` first.

| Setting | Default |
| ------- | ------: |
| port    | 8080    |

- [x] Installed the CLI
- [ ] Deployed to production

{% tabs %}
{% tab title="macOS" %}
Run brew install widget.
{% endtab %}

{% tab title="Linux" %}
Run apt install widget.
{% endtab %}

{% tab title="Windows" %}
Run the installer.
{% endtab %}
{% endtabs %}

{% columns %}
{% column width="50%" %}
Left column text.
{% endcolumn %}

{% column width="50%" %}
Right column text.
{% endcolumn %}
{% endcolumns %}

[^speed]: Measured on **one** core.

{% code title="server.ts" lineNumbers="true" %}
\`\`\`typescript
export const server = await serve({ port: 8080, workers: 4, onError: (err) => console.error('a line long enough to scroll sideways on a phone', err) });
\`\`\`
{% endcode %}
`;

describe.skipIf(!HAS_CHROMIUM)('reader blocks in Chromium, as a reader sees them', () => {
  let api: TestApi;
  let browser: Browser;
  let site: { id: string; url: string };
  let org: TestOrg;
  let space: { id: string };

  beforeAll(async () => {
    api = await startTestApi();
    org = await newOrg();
    space = await spaceWithPages(api, org, 'Guide', [BLOCKS_MARKDOWN, CONFIG_MARKDOWN], [
      { name: 'diagram.png', contentType: 'image/png', bytes: pngFile(400, 300, 7) },
      { name: 'flow.png', contentType: 'image/png', bytes: pngFile(320, 200, 3) },
      { name: 'flow-dark.png', contentType: 'image/png', bytes: pngFile(320, 200, 9) },
    ]);
    site = await publishedSite(api, org, [space.id], 'public');
    browser = await launchChromium();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await api?.close();
  });

  const open = async (options: BrowserContextOptions) => {
    const context = await browser.newContext(options);
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
    page.on('pageerror', (e) => errors.push(e.message));
    return { page, errors };
  };
  const DESKTOP = { viewport: { width: 1280, height: 800 } };
  const MOBILE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true };
  const overlap = (a: { x: number; y: number; width: number; height: number }, b: typeof a) =>
    a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

  it("the site's locale: the layout's words server-side and the script's (copy button, search with no results, theme toggle) in French and Japanese; English unchanged; axe clean", async () => {
    const cases = [
      { locale: 'fr', skip: 'Aller au contenu', next: 'Suivant', copy: 'Copier', copied: 'Copié', dark: 'Passer au thème sombre', none: 'Aucun résultat pour «\u00a0zzqqxx\u00a0».', search: 'Rechercher' },
      { locale: 'ja', skip: 'コンテンツへスキップ', next: '次へ', copy: 'コピー', copied: 'コピーしました', dark: 'ダークモードに切り替え', none: '「zzqqxx」に一致する結果はありません。', search: '検索' },
      { locale: 'en', skip: 'Skip to content', next: 'Next', copy: 'Copy', copied: 'Copied', dark: 'Switch to dark mode', none: 'No results for “zzqqxx”.', search: 'Search' },
    ];
    for (const c of cases) {
      const localized = await publishedSite(api, org, [space.id], 'public');
      const settings = (await api.request('GET', `${localized.base}/customization`, { token: org.admin.token })).body;
      settings.internationalization = { locale: c.locale };
      expect((await api.request('PUT', `${localized.base}/customization`, { token: org.admin.token, body: settings })).status).toBe(200);
      const { page, errors } = await open({ ...DESKTOP, colorScheme: 'light' });
      await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
      await page.goto(`${localized.url}/reader-blocks`);
      expect(await page.locator('html').getAttribute('lang'), c.locale).toBe(c.locale);
      expect(await page.locator('a.skip-link').textContent()).toBe(c.skip);
      expect(await page.locator('nav.pagination a[rel=next] small').textContent()).toBe(`${c.next} →`);
      // The script's words: the theme toggle's label, the copy button and what it says once it copied.
      expect(await page.locator('[data-theme-toggle]').getAttribute('aria-label')).toBe(c.dark);
      const code = page.locator('figure.code', { hasText: 'server.ts' });
      await code.getByRole('button', { name: c.copy, exact: true }).click();
      await expect.poll(() => code.locator('button.copy').textContent()).toBe(c.copied);
      expect(await page.evaluate(() => navigator.clipboard.readText())).toContain('export const server');
      expect(await axeViolations(page), c.locale).toEqual([]);
      // Instant search with no results: the panel says so in the site's language.
      const box = page.getByRole('searchbox', { name: c.search });
      await box.fill('zzqqxx');
      const panel = page.locator('.search-panel');
      await expect.poll(() => panel.isVisible()).toBe(true);
      expect(await panel.locator('p').textContent()).toBe(c.none);
      expect(await axeViolations(page), `${c.locale} search`).toEqual([]);
      expect(errors).toEqual([]);
      await page.context().close();
    }
  }, 120_000);

  it('a page with code inside an expandable opens, the code highlighted; the figure caption keeps its bold and its link', async () => {
    const { page, errors } = await open(DESKTOP);
    const res = await page.goto(`${site.url}/reader-blocks`);
    expect(res?.status()).toBe(200);
    const details = page.locator('main details');
    await details.locator('summary').click();
    expect(await details.locator('pre.shiki code.language-yaml').innerText()).toContain('workers: 4');

    const caption = page.locator('figure.image figcaption').first();
    expect(await caption.innerText()).toBe('The diagram, see the configuration');
    expect(await caption.locator('strong').innerText()).toBe('diagram');
    await caption.getByRole('link', { name: 'the configuration' }).click();
    await page.waitForURL(`${site.url}/configuration`);
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('task items show the box beside their text; columns sit side by side, stacked on a phone; long words wrap', async () => {
    const { page } = await open(DESKTOP);
    await page.goto(`${site.url}/reader-blocks`);
    const item = page.locator('ul.tasks > li').first();
    const box = (await item.locator('input[type=checkbox]').boundingBox())!;
    const label = (await item.locator('p').boundingBox())!;
    expect(await item.locator('input').isChecked()).toBe(true);
    // On one line: the box's middle is within the text's line, left of the text.
    expect(box.y + box.height / 2).toBeGreaterThan(label.y);
    expect(box.y + box.height / 2).toBeLessThan(label.y + label.height);
    expect(box.x + box.width).toBeLessThanOrEqual(label.x);
    expect(await item.evaluate((el) => getComputedStyle(el).listStyleType)).toBe('none');

    const [left, right] = [(await page.locator('.column').nth(0).boundingBox())!, (await page.locator('.column').nth(1).boundingBox())!];
    expect(Math.abs(left.y - right.y)).toBeLessThan(1);
    expect(right.x).toBeGreaterThan(left.x + left.width);
    await page.context().close();

    const phone = (await open(MOBILE)).page;
    await phone.goto(`${site.url}/reader-blocks`);
    const [top, bottom] = [(await phone.locator('.column').nth(0).boundingBox())!, (await phone.locator('.column').nth(1).boundingBox())!];
    expect(bottom.y).toBeGreaterThanOrEqual(top.y + top.height);
    // Nothing makes the page wider than the phone: a long URL or inline code in a paragraph wraps.
    expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    const paragraph = (await phone.locator('main p', { hasText: 'downloads.example.com' }).boundingBox())!;
    expect(paragraph.x + paragraph.width).toBeLessThanOrEqual(390);
    await phone.context().close();
  });

  it('code asked with line numbers shows them; the copy button sits in the header, never over the code', async () => {
    for (const options of [DESKTOP, MOBILE]) {
      const { page } = await open(options);
      await page.goto(`${site.url}/reader-blocks`);
      const code = page.locator('figure.code', { hasText: 'server.ts' });
      const firstLine = code.locator('pre .line').first();
      expect(await code.locator('pre').getAttribute('class')).toContain('line-numbers');
      expect(await firstLine.evaluate((el) => getComputedStyle(el, '::before').content)).not.toBe('none');
      const copy = code.getByRole('button', { name: 'Copy' });
      const [button, pre] = [(await copy.boundingBox())!, (await code.locator('pre').boundingBox())!];
      expect(overlap(button, pre), JSON.stringify({ button, pre })).toBe(false);
      expect(overlap(button, (await code.locator('.code-header').boundingBox())!)).toBe(true);
      await page.context().close();
    }
  });

  it('footnotes: the reference is a superscript link to its note, the note reads as markdown and links back', async () => {
    const { page, errors } = await open(DESKTOP);
    await page.goto(`${site.url}/reader-blocks`);
    // Nothing of the markdown syntax is left on the page.
    expect(await page.locator('main').innerText()).not.toContain('[^');
    const refs = page.locator('sup.footnote-ref a');
    expect(await refs.count()).toBe(2);
    await refs.first().click();
    expect(page.url()).toBe(`${site.url}/reader-blocks#fn-speed`);
    const note = page.locator(':target');
    expect(await note.innerText()).toContain('Measured on one core.');
    expect(await note.locator('strong').innerText()).toBe('one');
    await note.getByRole('link', { name: 'Back to reference speed' }).click();
    expect(await page.locator(':target').evaluate((el) => el.closest('sup')?.className)).toBe('footnote-ref');
    expect(errors).toEqual([]);
    expect(await axeViolations(page, 'main')).toEqual([]);
    await page.context().close();
  });

  it('tabs answer the arrow keys, Home and End, and are one tab stop', async () => {
    const { page } = await open(DESKTOP);
    await page.goto(`${site.url}/reader-blocks`);
    const tab = (name: string) => page.getByRole('tab', { name });
    const focused = () => page.evaluate(() => document.activeElement?.textContent);
    await tab('macOS').focus();
    await page.keyboard.press('ArrowRight');
    expect(await focused()).toBe('Linux');
    expect(await tab('Linux').getAttribute('aria-selected')).toBe('true');
    expect(await page.getByRole('tabpanel').innerText()).toBe('Run apt install widget.');
    await page.keyboard.press('End');
    expect(await focused()).toBe('Windows');
    await page.keyboard.press('ArrowRight');
    expect(await focused()).toBe('macOS');
    await page.keyboard.press('ArrowLeft');
    expect(await focused()).toBe('Windows');
    await page.keyboard.press('Home');
    expect(await page.getByRole('tabpanel').innerText()).toBe('Run brew install widget.');
    // Tab leaves the tab list: the other tabs are reached with the arrows only.
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('role'))).not.toBe('tab');
    await page.keyboard.press('Shift+Tab');
    expect(await focused()).toBe('macOS');
    await page.context().close();
  });

  it('on a phone, the menu opens below the whole header (announcement included) with the header links; the menu button, Escape or a tap beside it closes it', async () => {
    const customized = await publishedSite(api, org, [space.id], 'public');
    const current = await api.request('GET', `${customized.base}/customization`, { token: org.admin.token });
    const settings = current.body;
    settings.header.links = [{ title: 'Status', to: { kind: 'url', url: 'https://status.example.com/' }, links: [] }];
    settings.announcement = { enabled: true, message: 'Version 2 is out', style: 'info' };
    expect((await api.request('PUT', `${customized.base}/customization`, { token: org.admin.token, body: settings })).status).toBe(200);

    const { page, errors } = await open(MOBILE);
    await page.goto(`${customized.url}/configuration`);
    const menu = page.getByRole('button', { name: /menu/i });
    await menu.click();
    const drawer = page.locator('aside.sidebar');
    await expect.poll(() => drawer.isVisible()).toBe(true);
    const header = (await page.locator('header.top').boundingBox())!;
    expect((await drawer.boundingBox())!.y).toBeGreaterThanOrEqual(header.y + header.height - 1);
    // The header's links, which a phone's header has no room for, are in the drawer.
    expect(await drawer.getByRole('navigation', { name: 'Header' }).getByRole('link', { name: 'Status' }).isVisible()).toBe(true);
    // The menu button is not covered: a tap on it reaches it, and closes the drawer.
    const button = (await menu.boundingBox())!;
    expect(await page.evaluate(([x, y]) => document.elementFromPoint(x!, y!)?.closest('.menu-link') !== null, [button.x + button.width / 2, button.y + button.height / 2])).toBe(true);
    await menu.click();
    await expect.poll(() => drawer.isVisible()).toBe(false);
    expect(await menu.getAttribute('aria-expanded')).toBe('false');

    await menu.click();
    await page.keyboard.press('Escape');
    await expect.poll(() => drawer.isVisible()).toBe(false);
    expect(await menu.evaluate((el) => el === document.activeElement)).toBe(true);

    await menu.click();
    await page.mouse.click(370, 600);
    await expect.poll(() => drawer.isVisible()).toBe(false);
    expect(errors).toEqual([]);
    await page.context().close();

    // On a desktop the links stay in the header only.
    const desktop = (await open(DESKTOP)).page;
    await desktop.goto(`${customized.url}/configuration`);
    expect(await desktop.getByRole('navigation', { name: 'Header' }).count()).toBe(1);
    expect(await desktop.locator('header.top').getByRole('link', { name: 'Status' }).isVisible()).toBe(true);
    await desktop.context().close();
  });

  it('a missing page answers 404 inside the site: its title, page tree and search, and a way back to the first page', async () => {
    const { page, errors } = await open(DESKTOP);
    const res = await page.goto(`${site.url}/no-such-page`);
    expect(res?.status()).toBe(404);
    expect(res?.headers()['cache-control']).toBe('no-store');
    expect(await page.title()).toBe('Page not found · Widget Docs');
    expect(await page.locator('main h1').innerText()).toBe('Page not found');
    expect(await page.locator('meta[name=robots]').getAttribute('content')).toBe('noindex');
    expect(await page.getByRole('searchbox', { name: 'Search' }).isVisible()).toBe(true);
    expect(await page.getByRole('navigation', { name: 'Pages' }).getByRole('link', { name: 'Configuration' }).isVisible()).toBe(true);
    await page.locator('main').getByRole('link', { name: 'Guide' }).click();
    await page.waitForURL(site.url);
    expect(await page.locator('main h1').innerText()).toBe('Reader blocks');
    expect(errors.filter((e) => !e.includes('404'))).toEqual([]);
    expect(await axeViolations(page)).toEqual([]);
    // Markdown of a missing page stays a plain 404.
    expect((await fetch(`${site.url}/no-such-page.md`)).status).toBe(404);
    await page.context().close();
  });

  it('table headers line up with their columns; printed, a page is its content without the site around it', async () => {
    const { page } = await open(DESKTOP);
    await page.goto(`${site.url}/reader-blocks`);
    const align = (name: string) => page.getByRole('columnheader', { name }).evaluate((el) => getComputedStyle(el).textAlign);
    expect(await align('Setting')).toBe('left');
    expect(await align('Default')).toBe('right');
    await page.emulateMedia({ media: 'print' });
    for (const selector of ['header.top', 'aside.sidebar', 'nav.pagination', 'footer.bottom', '.copy']) {
      expect(await page.locator(selector).first().isVisible(), selector).toBe(false);
    }
    expect(await page.locator('main h1').isVisible()).toBe(true);
    const [main, article] = [(await page.locator('main').boundingBox())!, (await page.locator('main article').boundingBox())!];
    expect(main.x).toBeLessThan(20);
    expect(article.width).toBeGreaterThan(main.width - 1);
    await page.context().close();
  });

  it('links and search marks read on both themes, also in a site colour chosen for the other one (axe, whole page)', async () => {
    for (const colorScheme of ['dark', 'light'] as const) {
      const { page } = await open({ ...DESKTOP, colorScheme });
      for (const path of ['/reader-blocks', '?q=widget']) {
        await page.goto(`${site.url}${path}`);
        expect(await axeViolations(page), `${colorScheme} ${path}`).toEqual([]);
      }
      await page.context().close();
    }
    // An orange for light pages and a navy for dark ones: neither reads as text on its own page.
    const branded = await publishedSite(api, org, [space.id], 'public');
    const settings = (await api.request('GET', `${branded.base}/customization`, { token: org.admin.token })).body;
    settings.styling.primaryColor = { light: '#FE9A00', dark: '#1A3D8F' };
    expect((await api.request('PUT', `${branded.base}/customization`, { token: org.admin.token, body: settings })).status).toBe(200);
    for (const colorScheme of ['dark', 'light'] as const) {
      const { page } = await open({ ...DESKTOP, colorScheme });
      await page.goto(`${branded.url}/reader-blocks`);
      expect(await axeViolations(page, 'main'), colorScheme).toEqual([]);
      await page.context().close();
    }
  });

  it('the search result reached with the arrow keys shows its focus, on the dark theme too', async () => {
    const { page } = await open({ ...DESKTOP, colorScheme: 'dark' });
    await page.goto(`${site.url}/reader-blocks`);
    const box = page.getByRole('searchbox', { name: 'Search' });
    await box.fill('configuration');
    const panel = page.getByRole('region', { name: 'Search results' });
    await expect.poll(() => panel.locator('a').count()).toBeGreaterThan(0);
    await box.press('ArrowDown');
    const focused = panel.locator('a:focus');
    expect(await focused.count()).toBe(1);
    const style = await focused.evaluate((el) => { const s = getComputedStyle(el); return { style: s.outlineStyle, width: parseFloat(s.outlineWidth) }; });
    expect(style.style).not.toBe('none');
    expect(style.width).toBeGreaterThanOrEqual(2);
    await page.context().close();
  });

  it('a page under a path that a variant also takes stays reachable from the page tree, sitemap and llms.txt', async () => {
    // The main space has a page "API" with a subpage (api/endpoints); a variant is given the path "api".
    const { space: main, cr } = await spaceWithChangeRequest(api, org, 'Platform');
    const existing = Object.values(await pagesByTitle(api, org, main.id, cr.id));
    await editContent(api, org, main.id, cr.id, [
      ...existing.map((p) => ({ operation: 'delete_page', page: p.id })),
      { operation: 'insert_page', document: { markdown: '# Overview\n\nStart here.\n' } },
      { operation: 'insert_page', document: { markdown: '# API\n\nThe API.\n' } },
    ]);
    const parent = (await pagesByTitle(api, org, main.id, cr.id)).API!;
    await editContent(api, org, main.id, cr.id, [{ operation: 'insert_page', into: parent.id, document: { markdown: '# Endpoints\n\nEvery endpoint.\n' } }]);
    expect((await api.request('POST', `/spaces/${main.id}/change-requests/${cr.id}/merge`, { token: org.admin.token })).status).toBe(200);
    const variant = await spaceWithPages(api, org, 'Legacy', ['# Legacy home\n\nOld docs.\n']);
    const shared = await publishedSite(api, org, [main.id], 'public');
    const added = await api.request('POST', `${shared.base}/site-spaces`, { token: org.admin.token, body: { spaceId: variant.id } });
    expect(added.status, JSON.stringify(added.body)).toBe(201);
    expect((await api.request('PATCH', `${shared.base}/site-spaces/${added.body.id}`, { token: org.admin.token, body: { path: 'api' } })).status).toBe(200);
    expect((await api.request('POST', `${shared.base}/publish`, { token: org.admin.token })).status).toBe(200);

    const { page } = await open(DESKTOP);
    await page.goto(shared.url);
    const tree = page.getByRole('navigation', { name: 'Pages' });
    await tree.locator('li', { has: page.getByRole('link', { name: 'API', exact: true }) }).locator('summary').first().click();
    await tree.getByRole('link', { name: 'Endpoints' }).click();
    await page.waitForURL(`${shared.url}/api/endpoints`);
    expect(await page.locator('main h1').innerText()).toBe('Endpoints');
    // The variant keeps its path: its root and its pages.
    expect((await page.goto(`${shared.url}/api`))?.status()).toBe(200);
    expect(await page.locator('main h1').innerText()).toBe('Legacy home');
    await page.context().close();
    for (const file of ['sitemap.xml', 'llms.txt']) {
      const body = await (await fetch(`${shared.url}/${file}`)).text();
      const urls = [...body.matchAll(/https?:\/\/[^\s<)]+/g)].map((m) => m[0]).filter((u) => u.startsWith(shared.url) && !u.endsWith('.xml'));
      expect(urls.length, file).toBeGreaterThan(2);
      for (const url of urls) expect((await fetch(url)).status, `${file}: ${url}`).toBe(200);
    }
  });

  it("a space's language is the article's: lang for screen readers, right to left for Arabic", async () => {
    for (const [language, dir] of [['fr', 'ltr'], ['ar', 'rtl']] as const) {
      const translated = await spaceWithPages(api, org, `Guide ${language}`, ['# Bienvenue\n\nBonjour.\n']);
      expect((await api.request('PATCH', `/spaces/${translated.id}`, { token: org.admin.token, body: { language } })).status).toBe(200);
      const localized = await publishedSite(api, org, [translated.id], 'public');
      const { page } = await open(DESKTOP);
      await page.goto(localized.url);
      const article = page.locator('main article');
      expect(await article.getAttribute('lang')).toBe(language);
      expect(await article.locator('h1').evaluate((el) => getComputedStyle(el).direction)).toBe(dir);
      // The site's own words (search, navigation) are the site's locale's, not the space's: English by default.
      expect(await page.locator('html').getAttribute('lang')).toBe('en');
      await page.context().close();
    }
  });

  it('an image with a dark variant, and the site logo, show the one of the theme: the system, then the toggle', async () => {
    const visibleSrc = (page: Page, selector: string) => page.locator(selector).evaluateAll((els) => els.filter((el) => getComputedStyle(el).display !== 'none').map((el) => (el as HTMLImageElement).getAttribute('src')!.split('/').pop()));
    for (const [colorScheme, shown] of [['light', 'flow.png'], ['dark', 'flow-dark.png']] as const) {
      const { page, errors } = await open({ ...DESKTOP, colorScheme });
      await page.goto(`${site.url}/reader-blocks`);
      const figure = page.locator('figure.image', { hasText: 'Request flow' });
      expect(await visibleSrc(page, 'figure.image:has(figcaption:text("Request flow")) img')).toEqual([shown]);
      await figure.locator('img:visible').scrollIntoViewIfNeeded();
      await expect.poll(() => figure.locator('img:visible').evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth)).toBe(320);
      // The toggle wins over the system's theme.
      await page.locator('[data-theme-toggle]').click();
      expect(await visibleSrc(page, 'figure.image:has(figcaption:text("Request flow")) img')).toEqual([colorScheme === 'light' ? 'flow-dark.png' : 'flow.png']);
      expect(errors).toEqual([]);
      await page.context().close();
    }
    const branded = await publishedSite(api, org, [space.id], 'public');
    const settings = (await api.request('GET', `${branded.base}/customization`, { token: org.admin.token })).body;
    settings.header.logo = { light: 'https://cdn.example.com/logo-light.svg', dark: 'https://cdn.example.com/logo-dark.svg' };
    expect((await api.request('PUT', `${branded.base}/customization`, { token: org.admin.token, body: settings })).status).toBe(200);
    for (const [colorScheme, shown] of [['light', 'logo-light.svg'], ['dark', 'logo-dark.svg']] as const) {
      const { page } = await open({ ...DESKTOP, colorScheme });
      await page.goto(branded.url);
      expect(await visibleSrc(page, 'header .brand img')).toEqual([shown]);
      await page.context().close();
    }
  });

  it('pages carry link-preview tags and their canonical URL (the site root names its first page)', async () => {
    const { page } = await open(DESKTOP);
    await page.goto(site.url);
    const meta = (selector: string) => page.locator(selector).getAttribute('content');
    expect(await page.locator('link[rel=canonical]').getAttribute('href')).toBe(`${site.url}/reader-blocks`);
    expect(await meta('meta[property="og:url"]')).toBe(`${site.url}/reader-blocks`);
    expect(await meta('meta[property="og:title"]')).toBe('Reader blocks · Widget Docs');
    expect(await meta('meta[property="og:site_name"]')).toBe('Widget Docs');
    expect(await meta('meta[name="twitter:card"]')).toBe('summary');
    await page.context().close();
  });
});
