import { beforeAll, describe, expect, it } from 'vitest';
import { newOrg, useTestApi, type TestOrg } from './support/api.ts';
import { publishedSite, spaceWithPages } from './support/reader-site.ts';
import { block, blockIntegrationNames, publishBlockIntegrations, renderedPage as rendered } from './support/integration-blocks.ts';
import { BLOCK_RENDER_STALE_KEEP_SECONDS, BLOCK_RENDER_WAIT_MS } from '../shared/reader/integration-blocks.ts';
import { queryAll } from '../shared/db/operations.ts';

/**
 * Integration blocks on published pages (shared/reader/integration-blocks.ts): the installed
 * integration answers `ui_render` with ContentKit (test/fixtures/integrations/blocks) and the
 * page shows it as static HTML; a hostile answer cannot inject, a huge, hanging or invalid one
 * and an integration not installed show the integration's name; the render is cached with
 * the page's ETag.
 */
const api = useTestApi();

let org: TestOrg;
let site: { id: string; url: string };
const { installed, idle } = blockIntegrationNames();

beforeAll(async () => {
  org = await newOrg();
  await publishBlockIntegrations(api, org, { installed, idle }, { contentSecurityPolicy: 'frame-src https://frames.example.com' });
  const space = await spaceWithPages(api, org, 'Blocks', [
    `# Rendered\n\n${block(installed, 'label="Welcome" frame="https://frames.example.com/widget"')}\n\n${block(installed, 'label="Elsewhere" frame="https://other.example.net/widget"')}\n`,
    `# Hostile\n\n${block(installed, 'mode="hostile"')}\n`,
    `# Huge\n\n${block(installed, 'mode="huge"')}\n`,
    `# Hang\n\n${block(installed, 'mode="hang"')}\n`,
    `# Spin\n\n${block(installed, 'mode="spin"')}\n`,
    `# Invalid\n\n${block(installed, 'mode="invalid"')}\n`,
    `# Idle\n\n${block(idle, 'label="Idle"')}\n`,
  ]);
  site = await publishedSite(api, org, [space.id]);
}, 120_000);

/** The page at `path` once its blocks are rendered (support/integration-blocks.ts). */
const renderedPage = (path: string) => rendered(`${site.url}/${path}`);

const fallback = (name: string) => `<div class="integration-block"><p class="integration-fallback">${name}</p></div>`;

describe('integration blocks on published pages', () => {
  it('show the ContentKit the installed integration renders, as static HTML, with webframes its policy allows', { timeout: 60_000 }, async () => {
    const { res, html } = await renderedPage('rendered');
    expect(res.status).toBe(200);
    expect(html).toContain(`<p class="contentkit-card-title"><strong>Welcome for ${installed}</strong></p>`);
    expect(html).toMatch(/<p>Plain and <strong>bold<\/strong> text in space [\w-]+<\/p>/);
    expect(html).toContain('Some <strong>markdown</strong> with a <a href="https://example.com/docs"');
    expect(html).toContain('<code class="language-javascript">console.log("hi")</code>');
    expect(html).toMatch(/<a href="https:\/\/example\.com\/open" class="button secondary" rel="noopener noreferrer nofollow"[^>]*>Open docs<\/a>/);
    expect(html).toContain('<span class="button secondary">Refresh</span>');
    expect(html).toContain('<img src="https://example.com/diagram.png" alt=""');
    // An element type the reader does not know is left out, its siblings stay.
    expect(html).not.toContain('never shown');
    // The allowed webframe is a sandboxed frame, its origin (only) added to frame-src; the other one is a link.
    expect(html).toMatch(/<iframe src="https:\/\/frames\.example\.com\/widget" title="frames\.example\.com" sandbox="allow-scripts allow-same-origin allow-popups allow-forms" loading="lazy" referrerpolicy="no-referrer"/);
    expect(html).toContain('<a href="https://other.example.net/widget" rel="noopener noreferrer nofollow"');
    expect(html).not.toContain('<iframe src="https://other.example.net');
    expect(res.headers.get('content-security-policy')).toMatch(/frame-src https:\/\/frames\.example\.com(;|$)/);
  });

  it('are rendered once and cached: the page keeps its ETag and answers 304', async () => {
    const first = await renderedPage('rendered');
    const etag = first.res.headers.get('etag')!;
    expect(etag).toBeTruthy();
    // The card says when it was rendered: the same words on every view.
    const rendered = /<p class="contentkit-card-hint">Rendered at (\d+)<\/p>/.exec(first.html)?.[1];
    expect(rendered).toBeTruthy();
    const second = await fetch(`${site.url}/rendered`);
    expect(await second.text()).toContain(`Rendered at ${rendered}<`);
    expect(second.headers.get('etag')).toBe(etag);
    const started = Date.now();
    const again = await fetch(`${site.url}/rendered`, { headers: { 'if-none-match': etag } });
    expect(again.status).toBe(304);
    expect(Date.now() - started).toBeLessThan(1_000);
    // Stored with a TTL a week past its freshness: renders of old props and versions leave the table.
    const stored = await queryAll({ partition: `INTEGRATION#${installed}`, prefix: 'BLOCK-RENDER#' });
    expect(stored.length).toBeGreaterThan(0);
    for (const item of stored) expect(item.expiresAt).toBe(Math.ceil(Number(item.freshUntil) / 1000) + BLOCK_RENDER_STALE_KEEP_SECONDS);
  });

  it('a hostile answer cannot inject script, handlers or javascript: URLs', { timeout: 60_000 }, async () => {
    const { res, html } = await renderedPage('hostile');
    expect(res.status).toBe(200);
    const main = html.slice(html.indexOf('<main'), html.indexOf('</main>'));
    expect(main).toContain('class="integration-block"');
    // Text stays text.
    expect(main).toContain('&#x3C;script>window.pwned = 1&#x3C;/script>');
    expect(main).toContain('<strong>&#x3C;img src=x onerror=alert(1)></strong>');
    expect(main).not.toMatch(/<script|<img[^>]*onerror|javascript:|<iframe/i);
    expect(main).toContain('Bad button');
    expect(main).toContain('bad link');
  });

  it('a huge, an invalid or a hanging answer shows the integration\'s name, and the page does not wait past the deadline', async () => {
    for (const path of ['huge', 'invalid']) {
      const res = await fetch(`${site.url}/${path}`);
      expect(res.status, path).toBe(200);
      expect(await res.text(), path).toContain(fallback(installed));
    }
    for (const path of ['hang', 'spin']) {
      const started = Date.now();
      const res = await fetch(`${site.url}/${path}`);
      const html = await res.text();
      expect(res.status, path).toBe(200);
      expect(Date.now() - started, path).toBeLessThan(BLOCK_RENDER_WAIT_MS + 4_000);
      expect(html, path).toContain(fallback(installed));
    }
  }, 60_000);

  it('an integration not installed on the space shows its name', async () => {
    const res = await fetch(`${site.url}/idle`);
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain(fallback(idle));
    expect(html).not.toContain('Idle for');
  });

  it('the runtime renders only for the reader: an unsigned render request is refused', async () => {
    const res = await fetch(`${api.url}/s/${site.id}/~integrations/${installed}/render`, {
      method: 'POST', headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ orgId: org.id, spaceId: 'x', block: 'card', props: { label: 'Forged' } }),
    });
    expect(res.status).toBe(401);
    expect(((await res.json()) as { error: { code: number } }).error.code).toBe(401);
  });
});
