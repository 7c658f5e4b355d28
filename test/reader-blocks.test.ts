import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { newOrg, startTestApi, type TestApi, type TestOrg } from './support/api.ts';
import { editContent, pagesByTitle, spaceWithChangeRequest } from './support/published-content.ts';
import { publishedSite } from './support/reader-site.ts';
import { pngFile } from './support/png.ts';
import { launchChromium, RUN_BROWSER_TESTS } from './support/chromium.ts';
import { readPdf } from './support/pdf-text.ts';
import { startLoopbackServer } from './support/loopback-server.ts';
import sharp from 'sharp';

/**
 * The reader's remaining blocks, fonts and page actions (docs/reader.md): math as MathML
 * (from documents and from markdown's `$$`), raw HTML images served like markdown images,
 * focusable scrolling regions, card views of tables, hint titles and labels, the site's web font served by the site,
 * `<page>.pdf` and `externalLinks.target`, over HTTP and in Chromium.
 */

const text = (value: string) => ({ object: 'text', leaves: [{ object: 'leaf', text: value, marks: [] }] });
const block = (type: string, data: Record<string, unknown>, nodes: unknown[] = []) => ({ object: 'block', type, data, nodes, ...(nodes.length === 0 ? { isVoid: true } : {}) });

/** A page written as a document (the public model's `math` and `inline-math`). */
const MATH_DOCUMENT = {
  object: 'document',
  nodes: [
    block('paragraph', {}, [text('Einstein wrote '), { object: 'inline', type: 'inline-math', isVoid: true, data: { formula: 'E = mc^2' }, nodes: [] }, text(' in 1905.')]),
    block('math', { formula: 'x = \\frac{-b \\pm \\sqrt{b^2-4ac}}{2a}' }),
    block('math', { formula: '\\frac{1}{' }),
  ],
};

/**
 * A document written through the API whose raw HTML lists refs for its links (`data.links`,
 * as imports write them) that say something else than the HTML: a script URL, a missing file.
 */
const FORGED_LINKS_DOCUMENT = {
  object: 'document',
  nodes: [
    block('html', {
      html: '<p><a href="setup.md" class="button primary">Set up</a> <a href="guide.pdf" class="button secondary">Guide</a></p>',
      links: [
        { href: 'setup.md', ref: { kind: 'url', url: 'javascript:window.__xss=1' } },
        { href: 'guide.pdf', ref: { kind: 'file', file: 'no-such-file' } },
      ],
    }),
  ],
};

const CARDS_MARKDOWN = `# Cards

<table data-view="cards"><thead><tr><th></th><th></th><th data-hidden data-card-target data-type="content-ref"></th><th data-hidden data-card-cover data-type="files"></th></tr></thead><tbody><tr><td><strong>Formulas</strong></td><td>Math as MathML</td><td><a href="formulas.md">formulas.md</a></td><td><a href=".gitbook/assets/cover.png">cover.png</a></td></tr><tr><td><strong>Vendor</strong></td><td>Their own site</td><td><a href="https://vendor.example.com/">https://vendor.example.com/</a></td><td></td></tr></tbody></table>

<table><thead><tr><th>Command</th><th>Example</th></tr></thead><tbody><tr><td>List</td><td><pre class="language-bash"><code class="lang-bash">docs list --all
</code></pre></td></tr></tbody></table>

{% hint style="success" %}
### Ready to ship

Every check passed.
{% endhint %}

{% hint style="danger" %}
Never delete the production table.
{% endhint %}

Authors' own MathML stays out: <math><mi>z</mi></math>.

{% if visitor.claims.plan == "pro" %}
Pro customers only paragraph.
{% endif %}

See [the vendor](https://vendor.example.com/docs) for more.
`;

/** A drawing as GitBook stores it: SVG whose colours come from its own `<style>` (two boxes, blue then green). */
/** An SVG file with script in it: opened on its own, the file's sandbox policy must keep it from running. */
const SCRIPTED_SVG = '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10" onload="window.__xss=1;alert(1)"><script>window.__xss=2;alert(2)</script><rect width="10" height="10"/></svg>';
const DRAWING_SVG = '<svg xmlns="http://www.w3.org/2000/svg" width="320" height="160" viewBox="0 0 320 160"><style>.box{fill:#0b5fff}</style><rect class="box" width="160" height="160"/><rect x="160" width="160" height="160" fill="#02b341"/></svg>';

const WIDE_CELL = 'a-long-unbroken-value-that-makes-the-table-wider-than-the-column';

/** Raw HTML images as GitBook writes them, math as GitBook's markdown writes it, and regions wider than the column. */
const DRAWINGS_MARKDOWN = `# Drawings

<img src=".gitbook/assets/drawing.svg" alt="Install flow">

<div align="center"><img src=".gitbook/assets/cover.png" alt="Cover, centred" width="320"></div>

The icon <img src=".gitbook/assets/drawing.svg" alt="" data-size="line" width="24"> marks drawings.

$$
\\sum_{k=1}^{n} k = \\frac{n(n+1)}{2} \\qquad \\int_0^1 x^2 \\, dx = \\frac{1}{3} \\qquad \\lim_{x \\to 0} \\frac{\\sin x}{x} = 1 \\qquad e^{i\\pi} + 1 = 0 \\qquad \\prod_{p} \\frac{1}{1 - p^{-s}} = \\zeta(s)
$$

Inline, $$a^2 + b^2 = c^2$$ and a price of $5.

<pre tabindex="5">${'raw preformatted text that is much wider than the content column '.repeat(3)}</pre>

| Setting | Value | Default | Meaning |
| ------- | ----- | ------- | ------- |
| ${WIDE_CELL} | ${WIDE_CELL} | ${WIDE_CELL} | ${WIDE_CELL} |

<div><table><thead><tr><th>Raw</th><th>Table</th></tr></thead><tbody><tr><td>${WIDE_CELL}</td><td>${WIDE_CELL}</td></tr></tbody></table></div>
`;

let api: TestApi;
let org: TestOrg;
let site: { id: string; url: string; base: string };

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- presented bodies are edited freely
async function customize(change: (settings: any) => void) {
  const current = await api.request('GET', `${site.base}/customization`, { token: org.admin.token });
  const settings = current.body;
  delete settings.updatedAt;
  change(settings);
  const res = await api.request('PUT', `${site.base}/customization`, { token: org.admin.token, body: settings });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}


beforeAll(async () => {
  api = await startTestApi();
  org = await newOrg();
  const { space, cr } = await spaceWithChangeRequest(api, org, 'Blocks');
  const existing = await pagesByTitle(api, org, space.id, cr.id);
  await editContent(api, org, space.id, cr.id, [
    { operation: 'insert_files', files: [
      { name: 'cover.png', contentType: 'image/png', base64: pngFile(640, 360, 3).toString('base64') },
      { name: 'drawing.svg', contentType: 'image/svg+xml', base64: Buffer.from(DRAWING_SVG).toString('base64') },
      { name: 'scripted.svg', contentType: 'image/svg+xml', base64: Buffer.from(SCRIPTED_SVG).toString('base64') },
    ] },
    { operation: 'insert_page', title: 'Formulas', document: { document: MATH_DOCUMENT } },
    { operation: 'insert_page', document: { markdown: CARDS_MARKDOWN } },
    { operation: 'insert_page', document: { markdown: DRAWINGS_MARKDOWN } },
    { operation: 'insert_page', title: 'Forged links', document: { document: FORGED_LINKS_DOCUMENT } },
    ...Object.values(existing).map((page) => ({ operation: 'delete_page', page: page.id })),
  ]);
  const merged = await api.request('POST', `/spaces/${space.id}/change-requests/${cr.id}/merge`, { token: org.admin.token });
  expect(merged.status, JSON.stringify(merged.body)).toBe(200);
  site = await publishedSite(api, org, [space.id], 'public');
  await customize((s) => {
    s.styling.font = 'Lato';
    s.styling.monospaceFont = 'JetBrainsMono';
    s.externalLinks = { target: 'blank' };
  });
}, 120_000);
afterAll(async () => api?.close());

describe('blocks over HTTP', () => {
  it('math renders as MathML from the formulas only; invalid TeX shows as code', async () => {
    const res = await fetch(`${site.url}/formulas`);
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toMatch(/<p>Einstein wrote <math><semantics><mrow><mi>E<\/mi><mo>=<\/mo><mi>m<\/mi><msup><mi>c<\/mi><mn>2<\/mn><\/msup><\/mrow><annotation encoding="application\/x-tex">E = mc\^2<\/annotation><\/semantics><\/math> in 1905.<\/p>/);
    // Display math scrolls sideways when wide: focusable (shared/reader/scroll-regions.ts).
    expect(html).toMatch(/<div class="math-block" tabindex="0"><math display="block"><semantics><mrow><mi>x<\/mi><mo>=<\/mo><mfrac>/);
    expect(html).toContain('<div class="math-block" tabindex="0"><code class="math-error">\\frac{1}{</code></div>');
    // No placeholder is left behind.
    expect(html).not.toMatch(/id="math-/);
    // Author HTML never brings MathML (only formulas do).
    const cards = await (await fetch(`${site.url}/cards`)).text();
    expect(cards).not.toContain('<math');
    expect(cards).toContain("<p>Authors' own MathML stays out: .</p>");
  });

  it('raw HTML images are served like markdown images: the file\'s URL, its size unless the author gave one, lazy', async () => {
    const html = await (await fetch(`${site.url}/drawings`)).text();
    const file = (name: string) => `/s/${site.id}/~files/[0-9a-f]{64}/${name.replace('.', '\\.')}`;
    expect(html).toMatch(new RegExp(`<img width="320" height="160" loading="lazy" decoding="async" src="${file('drawing.svg')}" alt="Install flow">`));
    // The author's width stays (no height added); the wrapper's disallowed \`align\` is dropped by the sanitizer.
    expect(html).toMatch(new RegExp(`<div><img loading="lazy" decoding="async" src="${file('cover.png')}" alt="Cover, centred" width="320"></div>`));
    expect(html).toMatch(new RegExp(`The icon <img loading="lazy" decoding="async" src="${file('drawing.svg')}" alt="" width="24"> marks drawings`));
    // A source naming no file of the space is left as written.
    const { htmlWithFileUrls } = await import('../shared/reader/html-images.ts');
    const missing = '<p><img src="missing.png" alt="Missing"></p>';
    expect(htmlWithFileUrls(missing, { images: [{ src: 'missing.png', ref: { kind: 'file', file: 'missing.png' } }] }, () => undefined, () => '#')).toBe(missing);
    const svg = await fetch(new URL(new RegExp(file('drawing.svg')).exec(html)![0], site.url));
    expect(svg.headers.get('content-type')).toBe('image/svg+xml');
    expect(svg.headers.get('content-security-policy')).toBe("default-src 'none'; sandbox");
    expect(await svg.text()).toBe(DRAWING_SVG);
  });

  it('raw HTML links follow their listed refs, and the page is sanitized afterwards: a forged script URL never reaches the page', async () => {
    const html = await (await fetch(`${site.url}/forged-links`)).text();
    expect(html).not.toContain('javascript:');
    expect(html).not.toContain('__xss');
    // The script URL is dropped by the sanitizer (the button stays, without a target); a missing file leads nowhere.
    expect(html).toContain('<p><a class="button primary">Set up</a> <a href="#" class="button secondary">Guide</a></p>');
  });

  it('math written in markdown ($$ fences, $$x$$ inline) renders as MathML; a single $ stays text', async () => {
    const html = await (await fetch(`${site.url}/drawings`)).text();
    expect(html).toMatch(/<div class="math-block" tabindex="0"><math display="block"><semantics><mrow><munderover><mo>∑<\/mo>/);
    expect(html).toMatch(/<p>Inline, <math><semantics><mrow><msup><mi>a<\/mi><mn>2<\/mn><\/msup>.*<\/math> and a price of \$5.<\/p>/);
    const markdown = await (await fetch(`${site.url}/drawings.md`)).text();
    expect(markdown).toContain('\n$$\n\\sum_{k=1}^{n} k');
    expect(markdown).toContain('Inline, $$a^2 + b^2 = c^2$$ and a price of $5.');
  });

  it('regions that scroll sideways are focusable; tables are named regions; authors cannot set tabindex or roles', async () => {
    const html = await (await fetch(`${site.url}/drawings`)).text();
    expect(html).toContain('<pre tabindex="0">raw preformatted text');
    expect(html).not.toContain('tabindex="5"');
    expect(html).toContain('<div class="table" tabindex="0" role="region" aria-label="Table: Setting, Value, Default, Meaning"><table>');
    // A raw HTML table gets the same wrapper.
    expect(html).toContain('<div><div class="table" tabindex="0" role="region" aria-label="Table: Raw, Table"><table><thead><tr><th>Raw</th>');
    // Highlighted code keeps its focusable <pre>.
    const cards = await (await fetch(`${site.url}/cards`)).text();
    expect(cards).toMatch(/<pre class="shiki [^"]*" tabindex="0">/);
    // Authors' own roles and tabindex are not kept on any element.
    const { READER_SCHEMA } = await import('../shared/reader/schema.ts');
    const { sanitize } = await import('hast-util-sanitize');
    const { fromHtml } = await import('hast-util-from-html');
    const { toHtml } = await import('hast-util-to-html');
    expect(toHtml(sanitize(fromHtml('<pre tabindex="0">x</pre><div role="region" tabindex="0">y</div>', { fragment: true }), READER_SCHEMA))).toBe('<pre>x</pre><div>y</div>');
  });

  it('a cards table is a grid of cards: cover, title linking the whole card, description; block cells render their blocks', async () => {
    const html = await (await fetch(`${site.url}/cards`)).text();
    expect(html).toMatch(new RegExp(`<ul class="cards"><li class="card"><div class="card-cover"><img src="/s/${site.id}/~files/[0-9a-f]{64}/cover.png"[^>]* alt="" width="640" height="360" loading="lazy" decoding="async"></div><p class="card-title"><a class="card-link" href="/s/${site.id}/formulas">Formulas</a></p><div>Math as MathML</div></li>`));
    expect(html).toContain('<li class="card"><p class="card-title"><a class="card-link" href="https://vendor.example.com/" target="_blank" rel="noopener noreferrer">Vendor</a></p><div>Their own site</div></li></ul>');
    // Hidden columns (target, cover) are not shown as cells.
    expect(html).not.toContain('formulas.md</a>');
    expect(html).toMatch(/<td>List<\/td><td><figure class="code">.*<code class="language-bash">.*--all.*<\/figure><\/td>/s);
  });

  it('hints carry their style as label and a leading heading as title', async () => {
    const html = await (await fetch(`${site.url}/cards`)).text();
    // The leading heading stays a heading (id, anchor), shown as the title (not in "On this page": shared/reader/navigation.test.ts).
    expect(html).toMatch(/<div class="hint hint-success" role="note" aria-label="Success"><(h[2-6]) id="ready-to-ship"><a class="anchor" href="#ready-to-ship">#<\/a>Ready to ship<\/\1><p>Every check passed.<\/p><\/div>/);
    expect(html).toContain('<div class="hint hint-danger" role="note" aria-label="Danger"><p>Never delete the production table.</p></div>');
    const css = await (await fetch(new URL(/href="([^"]+\.css)"/.exec(html)![1]!, site.url))).text();
    for (const style of ['success', 'warning', 'danger']) expect(css).toMatch(new RegExp(`\\.hint-${style}\\{--hint:var\\(--${style}\\);--icon:url\\("data:image/svg\\+xml,`));
    expect(css).toMatch(/\.hint\{--hint:var\(--info\);--icon:url\("data:image\/svg\+xml,/);
  });

  it('external links open in a new tab telling nothing of the page; links inside the site do not', async () => {
    const html = await (await fetch(`${site.url}/cards`)).text();
    expect(html).toContain('<a href="https://vendor.example.com/docs" target="_blank" rel="noopener noreferrer">the vendor</a>');
    expect(html).toMatch(new RegExp(`<a class="card-link" href="/s/${site.id}/formulas">`));
  });

  it("serves the site's font from the site: only its files, woff2, a year's cache, font-src 'self'", async () => {
    const res = await fetch(`${site.url}/cards`);
    const html = await res.text();
    expect(res.headers.get('content-security-policy')).toMatch(/(^|; )font-src 'self'(;|$)/);
    const faces = [...html.matchAll(/@font-face\{font-family:"Lato";font-style:normal;font-weight:(\d+);font-display:swap;src:url\(([^)]+)\) format\("woff2"\)/g)];
    expect(faces.map((f) => f[1])).toEqual(['400', '700']);
    expect(html).toContain('--font:"Lato",system-ui');
    // Only the chosen fonts' files are referenced: the text font's two (style and preload), the code font's two (style).
    expect([...html.matchAll(/~assets\/fonts\/[\w-]+\.woff2/g)]).toHaveLength(6);
    expect([...html.matchAll(/@font-face\{font-family:"JetBrains Mono";[^}]*src:url\([^)]+~assets\/fonts\/[\w-]+\.woff2\)/g)]).toHaveLength(2);
    expect(html).toContain(`<link rel="preload" href="${faces[0]![2]}" as="font" type="font/woff2" crossorigin="anonymous">`);
    const font = await fetch(new URL(faces[0]![2]!, site.url));
    expect(font.status).toBe(200);
    expect(font.headers.get('content-type')).toBe('font/woff2');
    expect(font.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(Buffer.from(await font.arrayBuffer()).subarray(0, 4).toString('latin1')).toBe('wOF2');
    expect((await fetch(`${site.url}/~assets/fonts/nope.woff2`)).status).toBe(404);
  });

  it('a font without files (ABCFavorit) falls back to the system stack: no font file is referenced', async () => {
    await customize((s) => { s.styling.font = 'ABCFavorit'; });
    try {
      const html = await (await fetch(`${site.url}/cards`)).text();
      expect(html).not.toContain('@font-face{font-family:"ABC Favorit"');
      expect(html).not.toContain('rel="preload"');
      expect(html).toContain('--font:"ABC Favorit",system-ui');
      // The code font is still the site's own.
      expect([...html.matchAll(/~assets\/fonts\/[\w-]+\.woff2/g)]).toHaveLength(2);
    } finally {
      await customize((s) => { s.styling.font = 'Lato'; });
    }
  });

  it('the PDF page action: "Export as PDF" and <page>.pdf when enabled, 404 otherwise; ETag like the page; hidden content left out', async () => {
    expect((await fetch(`${site.url}/cards.pdf`)).status).toBe(404);
    expect(await (await fetch(`${site.url}/cards`)).text()).not.toContain('Export as PDF');

    await customize((s) => { s.pageActions = { items: ['markdown', 'pdf'] }; });
    const html = await (await fetch(`${site.url}/cards`)).text();
    expect(html).toContain(`<a href="/s/${site.id}/cards.pdf">Export as PDF</a>`);
    const res = await fetch(`${site.url}/cards.pdf`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/pdf');
    expect(res.headers.get('content-disposition')).toBe("attachment; filename*=UTF-8''cards.pdf");
    expect(res.headers.get('cache-control')).toBe('public, max-age=60, s-maxage=300');
    const bytes = new Uint8Array(await res.arrayBuffer());
    expect(Buffer.from(bytes.subarray(0, 5)).toString('latin1')).toBe('%PDF-');
    const pdf = await readPdf(bytes);
    expect(pdf.pages.length).toBeGreaterThanOrEqual(1);
    expect(pdf.text).toContain('Cards');
    expect(pdf.text).toContain('Every check passed.');
    expect(pdf.text).not.toContain('Pro customers only');
    // Same rendering, same ETag: answered 304; the HTML page has its own.
    const etag = res.headers.get('etag')!;
    expect((await fetch(`${site.url}/cards.pdf`, { headers: { 'if-none-match': etag } })).status).toBe(304);
    expect((await fetch(`${site.url}/cards`)).headers.get('etag')).not.toBe(etag);
    expect((await fetch(`${site.url}/no-such-page.pdf`)).status).toBe(404);
    // A second rendering gives the same bytes (nothing stored, nothing random).
    expect(Buffer.from(await (await fetch(`${site.url}/cards.pdf`)).arrayBuffer()).equals(Buffer.from(bytes))).toBe(true);
  });
});

describe.runIf(RUN_BROWSER_TESTS)('blocks in Chromium', () => {
  let browser: Browser;
  const errors: string[] = [];
  beforeAll(async () => { browser = await launchChromium(); }, 60_000);
  afterAll(async () => browser?.close());

  const open = async (options: Parameters<Browser['newContext']>[0] = { viewport: { width: 1280, height: 800 } }) => {
    const context = await browser.newContext(options);
    const page = await context.newPage();
    page.on('console', (m) => { if (m.type() === 'error') errors.push(`${page.url()}: ${m.text()}`); });
    page.on('pageerror', (e) => errors.push(`${page.url()}: ${e.message}`));
    return page;
  };
  const AXE = createRequire(import.meta.url)('axe-core').source as string;
  const axe = async (page: Page) => {
    await page.evaluate(AXE);
    const result = await page.evaluate(() => (window as unknown as { axe: { run(): Promise<{ violations: { id: string; impact: string; nodes: { target: string[] }[] }[] }> } }).axe.run());
    return result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  };

  it('math is laid out as MathML (with JavaScript off too)', async () => {
    const page = await open({ viewport: { width: 1280, height: 800 }, javaScriptEnabled: false });
    await page.goto(`${site.url}/formulas`);
    const display = (await page.locator('.math-block math').boundingBox())!;
    const inline = (await page.locator('p math').boundingBox())!;
    // A fraction stands taller than a line of text; the inline formula sits in its line.
    expect(display.height).toBeGreaterThan(30);
    expect(inline.height).toBeGreaterThan(10);
    expect(await page.locator('.math-block math').evaluate((el) => el.namespaceURI)).toBe('http://www.w3.org/1998/Math/MathML');
    await page.context().close();
  });

  it('cards sit side by side and the whole card follows its link; hints show their title', async () => {
    const page = await open();
    await page.goto(`${site.url}/cards`);
    const cards = page.locator('li.card');
    const [first, second] = [(await cards.nth(0).boundingBox())!, (await cards.nth(1).boundingBox())!];
    expect(second.y).toBe(first.y);
    expect(second.x).toBeGreaterThan(first.x + first.width - 1);
    const title = page.getByRole('note', { name: 'Success' }).getByRole('heading', { name: 'Ready to ship' });
    expect(await title.evaluate((el) => getComputedStyle(el).fontSize)).toBe(await page.locator('main p').first().evaluate((el) => getComputedStyle(el).fontSize));
    const icon = await page.locator('.hint-danger').evaluate((el) => getComputedStyle(el, '::before').maskImage);
    expect(icon).toMatch(/^url\("data:image\/svg\+xml,/);
    // A click on the cover (not on the title) opens the card's page.
    const cover = (await page.locator('.card-cover img').boundingBox())!;
    await page.mouse.click(cover.x + cover.width / 2, cover.y + cover.height / 2);
    await page.waitForURL(`${site.url}/formulas`);
    await page.context().close();
  });

  it('raw HTML images load from the site (the SVG drawing in its own colours); no request 404s', async () => {
    const page = await open();
    const failed: string[] = [];
    page.on('response', (r) => { if (r.status() >= 400) failed.push(`${r.status()} ${r.url()}`); });
    await page.goto(`${site.url}/drawings`, { waitUntil: 'load' });
    for (const alt of ['Install flow', 'Cover, centred']) {
      const img = page.locator(`article img[alt="${alt}"]`);
      await img.scrollIntoViewIfNeeded();
      await expect.poll(() => img.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth), { timeout: 15_000 }).toBeGreaterThan(0);
    }
    // Its <style> applies under the file's sandbox policy: the left box is blue, the right one green.
    const shot = await sharp(await page.locator('article img[alt="Install flow"]').screenshot()).removeAlpha().raw().toBuffer({ resolveWithObject: true });
    const pixel = (x: number) => [...shot.data.subarray((Math.floor(shot.info.height / 2) * shot.info.width + x) * 3, (Math.floor(shot.info.height / 2) * shot.info.width + x) * 3 + 3)];
    expect(pixel(Math.floor(shot.info.width / 4))).toEqual([0x0b, 0x5f, 0xff]);
    expect(pixel(Math.floor(shot.info.width * 3 / 4))).toEqual([0x02, 0xb3, 0x41]);
    expect(failed).toEqual([]);
    await page.context().close();
  });

  it('an SVG file with script, opened on its own, runs nothing (the file\'s sandbox policy, CSP as served)', async () => {
    // Not open(): the suite's "no console errors" is about pages; here the browser's report of
    // the blocked script is the expected outcome, and is asserted.
    const page = await (await browser.newContext()).newPage();
    const dialogs: string[] = [];
    const consoleErrors: string[] = [];
    page.on('dialog', (dialog) => { dialogs.push(dialog.message()); void dialog.dismiss(); });
    page.on('console', (m) => { if (m.type() === 'error') consoleErrors.push(m.text()); });
    const sha = createHash('sha256').update(SCRIPTED_SVG).digest('hex');
    const res = await page.goto(`${site.url}/~files/${sha}/scripted.svg`, { waitUntil: 'load' });
    expect(res?.status()).toBe(200);
    expect(res?.headers()['content-type']).toBe('image/svg+xml');
    await page.waitForTimeout(200);
    expect(await page.evaluate(() => (window as { __xss?: unknown }).__xss)).toBeUndefined();
    expect(dialogs).toEqual([]);
    expect(consoleErrors.some((m) => m.includes('sandboxed') && m.includes('allow-scripts'))).toBe(true);
    await page.context().close();
  });

  it('keyboard users reach and scroll the wide table, raw <pre> and display formula', async () => {
    const page = await open({ viewport: { width: 390, height: 844 } });
    await page.goto(`${site.url}/drawings`, { waitUntil: 'load' });
    for (const selector of ['div.math-block', 'article pre', 'div.table[aria-label^="Table: Setting"]']) {
      const region = page.locator(selector).first();
      expect(await region.evaluate((el) => el.scrollWidth > el.clientWidth), selector).toBe(true);
      // Reached with Tab from the element before it, then scrolled with the arrow keys.
      await region.evaluate((el) => {
        const before = document.createElement('button');
        el.before(before);
        before.focus();
      });
      await page.keyboard.press('Tab');
      expect(await region.evaluate((el) => el === document.activeElement), selector).toBe(true);
      await page.keyboard.press('ArrowRight');
      await expect.poll(() => region.evaluate((el) => el.scrollLeft), { timeout: 5_000 }).toBeGreaterThan(0);
    }
    await page.context().close();
  });

  it("uses the site's font, fetched from the site", async () => {
    const page = await open();
    const fonts: { url: string; type: string | null }[] = [];
    page.on('response', (r) => { if (r.url().endsWith('.woff2')) fonts.push({ url: r.url(), type: r.headers()['content-type'] ?? null }); });
    await page.goto(`${site.url}/cards`);
    await page.evaluate(() => document.fonts.ready);
    expect(await page.locator('body').evaluate((el) => getComputedStyle(el).fontFamily)).toMatch(/^Lato,/);
    expect(await page.evaluate(() => document.fonts.check('16px Lato'))).toBe(true);
    const loaded = await page.evaluate(() => {
      let count = 0;
      document.fonts.forEach((face) => { if (face.family.replace(/"/g, '') === 'Lato' && face.status === 'loaded') count++; });
      return count;
    });
    expect(loaded).toBeGreaterThan(0);
    expect(fonts.length).toBeGreaterThan(0);
    for (const font of fonts) {
      expect(font.url.startsWith(`${site.url}/~assets/fonts/`)).toBe(true);
      expect(font.type).toBe('font/woff2');
    }
    await page.context().close();
  });

  it("code uses the site's code font, fetched from the site", async () => {
    const page = await open();
    const fonts: string[] = [];
    page.on('response', (r) => { if (r.url().endsWith('.woff2')) fonts.push(r.url()); });
    await page.goto(`${site.url}/cards`);
    await page.evaluate(() => document.fonts.ready);
    expect(await page.locator('pre code').first().evaluate((el) => getComputedStyle(el).fontFamily)).toMatch(/^"JetBrains Mono", ui-monospace,/);
    await expect.poll(() => page.evaluate(() => document.fonts.check('14px "JetBrains Mono"')), { timeout: 10_000 }).toBe(true);
    const faces = await page.evaluate(() => {
      const found: { status: string; weight: string }[] = [];
      document.fonts.forEach((face) => { if (face.family.replace(/"/g, '') === 'JetBrains Mono') found.push({ status: face.status, weight: face.weight }); });
      return found;
    });
    expect(faces.find((f) => f.weight === '400')?.status).toBe('loaded');
    // The regular face's file, as the page's style declares it, came from the site.
    const regular = /@font-face\{font-family:"JetBrains Mono";font-style:normal;font-weight:400;[^}]*src:url\(([^)]+)\)/.exec(await page.content())![1]!;
    expect(fonts).toContain(new URL(regular, site.url).href);
    for (const url of fonts) expect(url.startsWith(`${site.url}/~assets/fonts/`)).toBe(true);
    await page.context().close();
  });

  it('a font definition of the site\'s own loads from its URL on another origin, allowed by the CSP', async () => {
    // The font's own server: another origin (another port), answering CORS as font hosts do.
    const bytes = readFileSync(createRequire(import.meta.url).resolve('@fontsource/lato/files/lato-latin-400-normal.woff2'));
    const requests: string[] = [];
    const fontHost = await startLoopbackServer((req, res) => {
      requests.push(req.url ?? '');
      res.writeHead(200, { 'content-type': 'font/woff2', 'access-control-allow-origin': '*' }).end(bytes);
    });
    const origin = fontHost.url;
    try {
      await customize((s) => {
        s.styling.font = { id: 'elsewhere', custom: true, fontFamily: 'Served Elsewhere', fontFaces: [{ weight: 400, sources: [{ url: `${origin}/served.woff2`, format: 'woff2' }] }] };
      });
      const page = await open();
      const response = await page.goto(`${site.url}/cards`);
      expect(response!.headers()['content-security-policy']).toContain(`font-src 'self' ${origin};`);
      await page.evaluate(() => document.fonts.ready);
      expect(await page.locator('body').evaluate((el) => getComputedStyle(el).fontFamily)).toMatch(/^"Served Elsewhere",/);
      await expect.poll(() => page.evaluate(() => document.fonts.check('16px "Served Elsewhere"')), { timeout: 10_000 }).toBe(true);
      const loaded = await page.evaluate(() => {
        let status = '';
        document.fonts.forEach((face) => { if (face.family.replace(/"/g, '') === 'Served Elsewhere') status = face.status; });
        return status;
      });
      expect(loaded).toBe('loaded');
      expect(requests).toContain('/served.woff2');
      await page.context().close();
    } finally {
      await customize((s) => { s.styling.font = 'Lato'; });
      await fontHost.close();
    }
  });

  it('pages with these blocks: no serious or critical axe violations, no console errors, within 100 KB compressed', async () => {
    for (const path of ['cards', 'formulas', 'drawings']) {
      for (const viewport of [{ width: 1280, height: 800 }, { width: 390, height: 844 }]) {
        const page = await open({ viewport });
        await page.goto(`${site.url}/${path}`, { waitUntil: 'load' });
        expect(await axe(page), `${path} ${viewport.width}`).toEqual([]);
        const urls = await page.evaluate(() => [location.href, ...Array.from(document.querySelectorAll<HTMLLinkElement>('link[rel=stylesheet]')).map((l) => l.href), ...Array.from(document.scripts).filter((s) => s.src).map((s) => s.src)]);
        let total = 0;
        for (const url of urls) total += gzipSync(Buffer.from(await (await fetch(url)).arrayBuffer())).length;
        expect(total).toBeLessThanOrEqual(100 * 1024);
        await page.context().close();
      }
    }
    expect(errors).toEqual([]);
  });
});
