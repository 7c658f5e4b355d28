import { beforeAll, describe, expect, it } from 'vitest';
import { newOrg, useTestApi, type TestOrg } from './support/api.ts';
import { CONFIG_MARKDOWN, GUIDE_MARKDOWN, publishedSite, spaceWithPages } from './support/reader-site.ts';
import { siteCustomizationEntity } from '../shared/db/entities/site-customization.ts';

/**
 * Customization of a site and a site space through the public interface's operations,
 * stored, presented (GET, published profile) and applied by the reader.
 */
const api = useTestApi();
let org: TestOrg;
let site: { id: string; url: string; base: string };
let siteSpaceId: string;

beforeAll(async () => {
  org = await newOrg();
  const space = await spaceWithPages(api, org, 'Guide', [GUIDE_MARKDOWN, CONFIG_MARKDOWN, '# Links\n\nSee [the vendor](https://vendor.example.com/) and [configuration](configuration.md).\n']);
  site = await publishedSite(api, org, [space.id], 'public');
  const spaces = await api.request('GET', `${site.base}/site-spaces`, { token: org.admin.token });
  siteSpaceId = spaces.body.items[0].id;
});

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- presented bodies are edited freely
type Settings = any;
const current = async (): Promise<Settings> => {
  const res = await api.request('GET', `${site.base}/customization`, { token: org.admin.token });
  expect(res.status).toBe(200);
  return res.body;
};

describe('site customization', () => {
  it('starts at the defaults: following the system theme, never written', async () => {
    const settings = await current();
    expect(settings).toMatchObject({ title: 'Widget Docs', themes: { default: 'system', toggeable: true }, pagination: { enabled: true } });
    expect(settings.updatedAt).toBeUndefined();
  });

  it('PUT replaces the settings, stores them, and the reader applies them', async () => {
    const settings = await current();
    delete settings.updatedAt;
    settings.title = 'Widget Handbook';
    settings.styling.primaryColor = { light: '#0A7D3E', dark: '#5EE29A' };
    settings.styling.corners = 'straight';
    settings.favicon = { emoji: '🚀' };
    settings.header.links = [{ title: 'Status', to: { kind: 'url', url: 'https://status.example.com/' }, links: [] }];
    settings.footer = { groups: [{ title: 'Company', links: [{ title: 'Blog', to: { kind: 'url', url: 'https://example.com/blog' } }] }], copyright: '© 2026 Widget Inc.' };
    settings.announcement = { enabled: true, message: 'Version 2 is out', style: 'info', link: { title: 'Read more', to: { kind: 'url', url: 'https://example.com/v2' } } };
    settings.themes = { default: 'dark', toggeable: true };
    settings.pagination = { enabled: false };
    settings.externalLinks = { target: 'blank' };
    const res = await api.request('PUT', `${site.base}/customization`, { token: org.admin.token, body: settings });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ title: 'Widget Handbook', styling: { primaryColor: { light: '#0A7D3E' }, corners: 'straight' }, themes: { default: 'dark' } });
    expect(res.body.updatedAt).toMatch(/^\d{4}-\d\d-\d\dT/);

    const stored = await siteCustomizationEntity.get({ siteId: site.id, scope: 'site' }, { consistent: true });
    expect(stored?.settings).toMatchObject({ title: 'Widget Handbook', footer: { copyright: '© 2026 Widget Inc.' } });
    expect(await current()).toEqual(res.body);

    const page = await fetch(`${site.url}/getting-started`);
    const html = await page.text();
    expect(html).toContain('<title>Getting started · Widget Handbook</title>');
    expect(html).toContain('<html lang="en" data-theme="dark">');
    expect(html).toMatch(/<style>:root\{--primary:#0A7D3E;[^}]*--radius:0[;}][^<]*:root\[data-theme=dark\]\{--primary:#5EE29A/);
    expect(html).toContain('<div class="announcement announcement-info" role="status">Version 2 is out <a href="https://example.com/v2">Read more</a></div>');
    expect(html).toContain('<nav class="links" aria-label="Header"><a href="https://status.example.com/">Status</a></nav>');
    expect(html).toContain('<strong>Company</strong><ul><li><a href="https://example.com/blog">Blog</a></li></ul>');
    expect(html).toContain('© 2026 Widget Inc.');
    expect(html).toContain(`href="/s/${site.id}/~assets/favicon.svg?color=0A7D3E&#x26;glyph=%F0%9F%9A%80"`);
    expect(html).not.toContain('class="pagination"');
    const favicon = await fetch(`${site.url}/~assets/favicon.svg?color=0A7D3E&glyph=%F0%9F%9A%80`);
    expect(favicon.status).toBe(200);
    expect(favicon.headers.get('content-type')).toBe('image/svg+xml');
    expect(await favicon.text()).toContain('fill="#0A7D3E"');
    // Links to other sites open in a new tab; links inside the site do not.
    const links = await (await fetch(`${site.url}/links`)).text();
    expect(links).toContain('<a href="https://vendor.example.com/" target="_blank" rel="noopener noreferrer">the vendor</a>');
    expect(links).toContain(`<a href="/s/${site.id}/configuration">configuration</a>`);
  });

  it('a page cached before the change is not answered 304 after it', async () => {
    const before = await fetch(`${site.url}/configuration`);
    const etag = before.headers.get('etag')!;
    expect((await fetch(`${site.url}/configuration`, { headers: { 'if-none-match': etag } })).status).toBe(304);
    const settings = await current();
    delete settings.updatedAt;
    settings.footer.copyright = '© 2027 Widget Inc.';
    expect((await api.request('PUT', `${site.base}/customization`, { token: org.admin.token, body: settings })).status).toBe(200);
    const after = await fetch(`${site.url}/configuration`, { headers: { 'if-none-match': etag } });
    expect(after.status).toBe(200);
    expect(await after.text()).toContain('© 2027 Widget Inc.');
  });

  it('rejects bad values naming the field, and writes nothing', async () => {
    const settings = await current();
    const before = settings.updatedAt;
    delete settings.updatedAt;
    const cases: [(s: Settings) => void, string][] = [
      [(s) => { s.styling.primaryColor.light = 'red; background:url(x)'; }, 'styling.primaryColor.light: must be a hex colour such as #346DDB'],
      [(s) => { s.header.links = [{ title: 'x', to: { kind: 'url', url: 'javascript:alert(1)' }, links: [] }]; }, 'header.links.0.to.url: must be an http or https URL'],
      [(s) => { s.header.logo = { light: 'data:image/png;base64,AAAA', dark: 'https://example.com/l.png' }; }, 'header.logo.light: must be an http or https URL'],
      [(s) => { s.announcement = { enabled: true, message: 'x', style: 'info' }; }, 'announcement.message: must be 2 to 128 characters'],
      [(s) => { s.themes.default = 'sepia'; }, 'themes.default: must be one of light, dark, system'],
      [(s) => { delete s.styling; }, 'styling: '],
    ];
    for (const [change, message] of cases) {
      const body = structuredClone(settings);
      change(body);
      const res = await api.request('PUT', `${site.base}/customization`, { token: org.admin.token, body });
      expect(res.status, message).toBe(400);
      expect(res.body.error.message).toContain(message);
    }
    expect((await current()).updatedAt).toBe(before);
  });

  it('needs the admin role to write, any member to read; other organizations see nothing', async () => {
    const settings = await current();
    delete settings.updatedAt;
    const editor = await org.member('edit');
    expect((await api.request('GET', `${site.base}/customization`, { token: editor.token })).status).toBe(200);
    expect((await api.request('PUT', `${site.base}/customization`, { token: editor.token, body: settings })).status).toBe(403);
    const stranger = await newOrg('Other');
    expect((await api.request('GET', `${site.base}/customization`, { token: stranger.admin.token })).status).toBe(404);
    expect((await api.request('GET', `/orgs/${org.id}/sites/nope/customization`, { token: org.admin.token })).status).toBe(404);
  });
});

describe('fonts of the site\'s own and code fonts', () => {
  const brandSans = {
    id: 'brand-sans', custom: true, fontFamily: 'Brand Sans',
    fontFaces: [
      { weight: 400, sources: [{ url: 'https://fonts.example.com/brand-400.woff2', format: 'woff2' }] },
      { weight: 700, sources: [{ url: 'https://fonts.example.com/brand-700.woff2', format: 'woff2' }, { url: 'https://cdn.example.net/brand-700.woff', format: 'woff' }] },
    ],
  };
  const brandMono = { id: 'brand-mono', custom: true, fontFamily: 'Brand Mono', fontFaces: [{ weight: 400, sources: [{ url: 'https://mono.example.org:8443/mono.woff2' }] }] };
  const put = async (change: (s: Settings) => void) => {
    const settings = await current();
    delete settings.updatedAt;
    change(settings);
    return api.request('PUT', `${site.base}/customization`, { token: org.admin.token, body: settings });
  };

  it('a font definition (styling.font, styling.monospaceFont) is stored, presented, and loaded by pages from its URLs; the CSP allows only their origins', async () => {
    const res = await put((s) => { s.styling.font = brandSans; s.styling.monospaceFont = brandMono; });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.styling.font).toEqual(brandSans);
    expect(res.body.styling.monospaceFont).toEqual(brandMono);
    expect((await current()).styling.font).toEqual(brandSans);

    const page = await fetch(`${site.url}/getting-started`);
    const html = await page.text();
    expect(html).toContain('--font:"Brand Sans",system-ui');
    expect(html).toContain('--mono:"Brand Mono",ui-monospace');
    expect(html).toContain('@font-face{font-family:"Brand Sans";font-style:normal;font-weight:400;font-display:swap;src:url("https://fonts.example.com/brand-400.woff2") format("woff2")}');
    expect(html).toContain('@font-face{font-family:"Brand Sans";font-style:normal;font-weight:700;font-display:swap;src:url("https://fonts.example.com/brand-700.woff2") format("woff2"),url("https://cdn.example.net/brand-700.woff") format("woff")}');
    expect(html).toContain('@font-face{font-family:"Brand Mono";font-style:normal;font-weight:400;font-display:swap;src:url("https://mono.example.org:8443/mono.woff2")}');
    // No bundled font file and no preload of files on other sites.
    expect(html).not.toContain('~assets/fonts/');
    expect(html).not.toContain('rel="preload"');
    const csp = page.headers.get('content-security-policy')!;
    expect(csp).toMatch(/(^|; )font-src 'self' https:\/\/fonts\.example\.com https:\/\/cdn\.example\.net https:\/\/mono\.example\.org:8443(;|$)/);
    // The style is still allowed by its hash alone.
    expect(csp).not.toContain('unsafe-inline');
  });

  it('a code font of the public list is served by the site (not preloaded), before the system\'s; the CSP allows no other font origin', async () => {
    expect((await put((s) => { s.styling.font = 'Inter'; s.styling.monospaceFont = 'JetBrainsMono'; })).status).toBe(200);
    const page = await fetch(`${site.url}/getting-started`);
    const html = await page.text();
    expect(html).toContain('--mono:"JetBrains Mono",ui-monospace,SFMono-Regular,Menlo,Consolas,monospace');
    expect(html).toContain('--font:"Inter",system-ui');
    expect(page.headers.get('content-security-policy')).toMatch(/(^|; )font-src 'self'(;|$)/);
    const faces = [...html.matchAll(/@font-face\{font-family:"JetBrains Mono";font-style:normal;font-weight:(\d+);font-display:swap;src:url\(([^)]+)\) format\("woff2"\);unicode-range:U\+0000-00FF,/g)];
    expect(faces.map((f) => f[1])).toEqual(['400', '700']);
    for (const [, , url] of faces) {
      expect(url).toMatch(new RegExp(`^/s/${site.id}/~assets/fonts/[\\w-]{16}\\.woff2$`));
      // The text font's files are preloaded, the code font's are not.
      expect(html).not.toContain(`<link rel="preload" href="${url}"`);
      const file = await fetch(new URL(url!, site.url));
      expect(file.status).toBe(200);
      expect(file.headers.get('content-type')).toBe('font/woff2');
      expect(file.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      expect(Buffer.from(await file.arrayBuffer()).subarray(0, 4).toString('latin1')).toBe('wOF2');
    }
    expect([...html.matchAll(/rel="preload"/g)]).toHaveLength(2);
  });

  it('every code font of the public list is served, latin regular and bold (DM Mono: 400 and 500, the heaviest it has)', async () => {
    const fonts: [string, string, string[]][] = [
      ['FiraCode', 'Fira Code', ['400', '700']], ['IBMPlexMono', 'IBM Plex Mono', ['400', '700']], ['JetBrainsMono', 'JetBrains Mono', ['400', '700']],
      ['SourceCodePro', 'Source Code Pro', ['400', '700']], ['RobotoMono', 'Roboto Mono', ['400', '700']], ['SpaceMono', 'Space Mono', ['400', '700']],
      ['DMMono', 'DM Mono', ['400', '500']], ['Inconsolata', 'Inconsolata', ['400', '700']],
    ];
    const seen = new Set<string>();
    for (const [name, family, weights] of fonts) {
      expect((await put((s) => { s.styling.monospaceFont = name; })).status).toBe(200);
      const html = await (await fetch(`${site.url}/getting-started`)).text();
      expect(html).toContain(`--mono:"${family}",ui-monospace`);
      const faces = [...html.matchAll(new RegExp(`@font-face\\{font-family:"${family}";font-style:normal;font-weight:(\\d+);font-display:swap;src:url\\(([^)]+)\\)`, 'g'))];
      expect(faces.map((f) => f[1]), name).toEqual(weights);
      for (const [, , url] of faces) {
        const file = await fetch(new URL(url!, site.url));
        expect(file.status, `${name} ${url}`).toBe(200);
        expect(file.headers.get('content-type')).toBe('font/woff2');
        seen.add(url!);
      }
    }
    // Sixteen different files.
    expect(seen.size).toBe(16);
    expect((await put((s) => { s.styling.monospaceFont = 'IBMPlexMono'; })).status).toBe(200);
  });

  it('a site space\'s font definition replaces the site\'s whole (faces are not merged)', async () => {
    expect((await put((s) => { s.styling.font = brandSans; })).status).toBe(200);
    const path = `${site.base}/site-spaces/${siteSpaceId}/customization`;
    const other = { id: 'serif', custom: true, fontFamily: 'House Serif', fontFaces: [{ weight: 400, sources: [{ url: 'https://fonts.example.com/serif.woff2', format: 'woff2' }] }] };
    const patched = await api.request('PATCH', path, { token: org.admin.token, body: { styling: { font: other } } });
    expect(patched.status, JSON.stringify(patched.body)).toBe(200);
    expect(patched.body.styling.font).toEqual(other);
    const page = await fetch(`${site.url}/getting-started`);
    const html = await page.text();
    expect(html).toContain('--font:"House Serif"');
    expect(html).not.toContain('Brand Sans');
    expect(page.headers.get('content-security-policy')).toMatch(/(^|; )font-src 'self' https:\/\/fonts\.example\.com(;|$)/);
    expect((await api.request('DELETE', path, { token: org.admin.token })).status).toBe(205);
    expect((await put((s) => { s.styling.font = 'Inter'; s.styling.monospaceFont = 'IBMPlexMono'; })).status).toBe(200);
  });

  it('rejects bad font definitions naming the field', async () => {
    const face = (url: string, weight = 400) => ({ weight, sources: [{ url, format: 'woff2' }] });
    const cases: [(s: Settings) => void, string][] = [
      [(s) => { s.styling.font = { ...brandSans, fontFamily: 'Brand"}body{color:red' }; }, 'styling.font.fontFamily: must be a font family name'],
      [(s) => { s.styling.font = { ...brandSans, fontFaces: [face('javascript:alert(1)')] }; }, 'styling.font.fontFaces.0.sources.0.url: must be an http or https URL'],
      [(s) => { s.styling.font = { ...brandSans, fontFaces: [face('https://fonts.example.com/a.woff2', 1200)] }; }, 'styling.font.fontFaces.0.weight: must be 1 to 1000'],
      [(s) => { s.styling.font = { ...brandSans, fontFaces: [] }; }, 'styling.font.fontFaces: must hold at least one font face'],
      [(s) => { s.styling.font = { ...brandSans, fontFaces: [{ weight: 400, sources: [{ url: 'https://fonts.example.com/a.ttf', format: 'truetype' }] }] }; }, 'styling.font.fontFaces.0.sources.0.format: must be one of woff2, woff'],
      [(s) => { s.styling.monospaceFont = 'ComicMono'; }, 'styling.monospaceFont: must be one of FiraCode, IBMPlexMono, JetBrainsMono, SourceCodePro, RobotoMono, SpaceMono, DMMono, Inconsolata, or a font definition'],
      [(s) => { s.styling.font = 'Lato'; s.styling.monospaceFont = { ...brandMono, id: '' }; }, 'styling.monospaceFont.id: must not be empty'],
    ];
    const before = (await current()).updatedAt;
    for (const [change, message] of cases) {
      const res = await put(change);
      expect(res.status, message).toBe(400);
      expect(res.body.error.message).toContain(message);
    }
    const patch = await api.request('PATCH', `${site.base}/site-spaces/${siteSpaceId}/customization`, { token: org.admin.token, body: { styling: { monospaceFont: { ...brandMono, fontFaces: [face('ftp://x/y.woff2')] } } } });
    expect(patch.status).toBe(400);
    expect(patch.body.error.message).toBe('styling.monospaceFont.fontFaces.0.sources.0.url: must be an http or https URL');
    expect((await current()).updatedAt).toBe(before);
  });
});

describe('site space customization', () => {
  const path = () => `${site.base}/site-spaces/${siteSpaceId}/customization`;

  it('PATCH overrides fields of the site, null resets them, DELETE removes the overrides', async () => {
    const site0 = await current();
    const patched = await api.request('PATCH', path(), { token: org.admin.token, body: { styling: { primaryColor: { light: '#8A2BE2', dark: '#C9A0FF' } }, pagination: { enabled: true } } });
    expect(patched.status, JSON.stringify(patched.body)).toBe(200);
    expect(patched.body.styling.primaryColor).toEqual({ light: '#8A2BE2', dark: '#C9A0FF' });
    // Fields not overridden keep the site's values.
    expect(patched.body.styling.corners).toBe(site0.styling.corners);
    expect(patched.body.title).toBe(site0.title);
    expect((await current()).styling.primaryColor).toEqual(site0.styling.primaryColor);
    expect((await api.request('GET', path(), { token: org.admin.token })).body).toEqual(patched.body);

    // The published profile and the reader's pages show the site space's settings.
    const profile = await api.request('GET', `${site.base}/published`, { token: org.admin.token });
    expect(profile.body.customizations.site.styling.primaryColor).toEqual(site0.styling.primaryColor);
    expect(profile.body.customizations.siteSpaces[siteSpaceId].styling.primaryColor.light).toBe('#8A2BE2');
    const html = await (await fetch(`${site.url}/getting-started`)).text();
    expect(html).toContain('--primary:#8A2BE2');
    expect(html).toContain('class="pagination"');

    const reset = await api.request('PATCH', path(), { token: org.admin.token, body: { styling: { primaryColor: null } } });
    expect(reset.status).toBe(200);
    expect(reset.body.styling.primaryColor).toEqual(site0.styling.primaryColor);
    expect(reset.body.pagination).toEqual({ enabled: true });
    const stored = await siteCustomizationEntity.get({ siteId: site.id, scope: siteSpaceId }, { consistent: true });
    expect(stored?.settings).toEqual({ styling: {}, pagination: { enabled: true } });

    expect((await api.request('DELETE', path(), { token: org.admin.token })).status).toBe(205);
    expect((await api.request('DELETE', path(), { token: org.admin.token })).status).toBe(204);
    expect(await siteCustomizationEntity.get({ siteId: site.id, scope: siteSpaceId }, { consistent: true })).toBeUndefined();
    expect((await api.request('GET', path(), { token: org.admin.token })).body.pagination).toEqual(site0.pagination);
  });

  it('rejects empty and bad overrides, and unknown site spaces', async () => {
    const empty = await api.request('PATCH', path(), { token: org.admin.token, body: {} });
    expect(empty.status).toBe(400);
    expect(empty.body.error.message).toBe('body: must set at least one customization field');
    const bad = await api.request('PATCH', path(), { token: org.admin.token, body: { styling: { corners: 'wavy' } } });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toBe('styling.corners: must be one of straight, rounded, circular');
    const unknown = await api.request('GET', `${site.base}/site-spaces/nope/customization`, { token: org.admin.token });
    expect(unknown.status).toBe(404);
    const member = await org.member('read');
    expect((await api.request('PATCH', path(), { token: member.token, body: { pagination: { enabled: false } } })).status).toBe(403);
  });
});
