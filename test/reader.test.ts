import { beforeAll, describe, expect, it } from 'vitest';
import { SignJWT } from 'jose';
import { newOrg, useTestApi, type TestOrg } from './support/api.ts';
import { CONFIG_MARKDOWN, GUIDE_MARKDOWN, IMAGES_MARKDOWN, publishedSite, spaceWithPages } from './support/reader-site.ts';
import { pngFile } from './support/png.ts';
import { READER_ASSETS } from '../shared/reader/assets.ts';
import { signVisitorToken } from '../shared/reader/visitor.ts';
import { evaluateCondition, visitorContext } from '../shared/reader/conditions.ts';
import { handler, isContentTypeBinary } from '../functions/reader/handler.ts';

const api = useTestApi();
let org: TestOrg;
let space: { id: string; title: string };
beforeAll(async () => {
  org = await newOrg();
  space = await spaceWithPages(api, org, 'Guide', [GUIDE_MARKDOWN, CONFIG_MARKDOWN, '# Secret <script>alert(1)</script>\n\nEscaped title.\n']);
});

const get = (url: string, headers: Record<string, string> = {}) => fetch(url, { headers, redirect: 'manual' });

describe('public site', () => {
  let site: { id: string; url: string; base: string };
  beforeAll(async () => {
    site = await publishedSite(api, org, [space.id], 'public');
  });

  it('urls.published is where the reader serves the site', () => {
    expect(site.url).toBe(`${api.url}/s/${site.id}`);
  });

  it('renders the first page at the root with navigation, hint, tabs, code title and pagination', async () => {
    const res = await get(site.url);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(res.headers.get('cache-control')).toBe('public, max-age=60, s-maxage=300');
    expect(res.headers.get('x-robots-tag')).toBeNull();
    const html = await res.text();
    expect(html).toContain('<title>Getting started · Widget Docs</title>');
    expect(html).toContain('<nav aria-label="Pages">');
    expect(html).toContain(`href="/s/${site.id}/getting-started" aria-current="page"`);
    expect(html).toContain(`href="/s/${site.id}/configuration"`);
    expect(html).toMatch(/<div class="hint hint-warning" role="note"[^>]*>\s*<p>Back up your data before upgrading.<\/p>/);
    expect(html).toContain('<div class="tabs" data-tabs="">');
    expect(html).toMatch(/role="tab"[^>]*aria-selected="true">macOS<\/button>/);
    expect(html).toMatch(/role="tabpanel"[^>]*hidden><p>Run apt install widget.<\/p>/);
    // Code: a header with title and language, the code highlighted server-side (token classes
    // whose colours, light and dark, are in the page's hashed style).
    expect(html).toContain('<figcaption class="code-header"><span class="code-title">config.yaml</span><span class="code-lang">yaml</span></figcaption>');
    expect(html).toMatch(/<pre class="shiki [^"]*" tabindex="0"><code class="language-yaml"><span class="line"><span class="(sk-[0-9a-z]+)">port<\/span>/);
    const portClass = /<span class="(sk-[0-9a-z]+)">port<\/span>/.exec(html)![1];
    expect(html).toMatch(new RegExp(`<style>[^<]*\\.${portClass}\\{--shiki-light:#[0-9A-Fa-f]{6};--shiki-dark:#[0-9A-Fa-f]{6}\\}`));
    expect(html).toContain(`<a href="/s/${site.id}/configuration">configuration</a>`);
    expect(html).toMatch(/<nav class="pagination"[\s\S]*rel="next" href="\/s\/[^"]+\/configuration"/);
    expect(html).toContain('<form class="search" role="search" method="get"');
    expect(html).not.toContain('name="robots"');
  });

  it('renders content refs and embeds, escapes titles', async () => {
    const html = await (await get(`${site.url}/configuration`)).text();
    expect(html).toContain(`<a class="content-ref" href="/s/${site.id}/getting-started"><span class="content-ref-title">Getting started</span>`);
    expect(html).toMatch(/<figure class="embed"><a href="https:\/\/www.youtube.com\/watch\?v=abc"/);
    expect(html).toMatch(/rel="prev" href="\/s\/[^"]+\/getting-started"/);
    expect(html).not.toContain('<script>alert(1)</script>');
  });

  it('answers 304 to a matching If-None-Match (ETag from revision and path)', async () => {
    const first = await get(`${site.url}/configuration`);
    const etag = first.headers.get('etag')!;
    // fetch asks for gzip, and a compressed answer's ETag is weak (RFC 9110 8.8.1); lambda-answers.test.ts has the plain one.
    expect(first.headers.get('content-encoding')).toBe('gzip');
    expect(etag).toMatch(/^W\/".+"$/);
    expect((await get(`${site.url}/configuration`, { 'if-none-match': etag })).status).toBe(304);
    expect((await get(`${site.url}/getting-started`)).headers.get('etag')).not.toBe(etag);
  });

  it('serves every page as markdown', async () => {
    const res = await get(`${site.url}/getting-started.md`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/markdown; charset=utf-8');
    const md = await res.text();
    expect(md).toMatch(/^# Getting started/m);
    expect(md).toContain('{% hint style="warning" %}');
    expect(md).toContain('{% tab title="Linux" %}');
    expect((await get(`${site.url}/missing.md`)).status).toBe(404);
  });

  it('serves llms.txt and llms-full.txt', async () => {
    const llms = await get(`${site.url}/llms.txt`);
    expect(llms.headers.get('content-type')).toMatch(/^text\/plain/);
    const text = await llms.text();
    expect(text).toMatch(/^# Widget Docs\n/);
    expect(text).toContain(`- [Getting started](${site.url}/getting-started.md)`);
    expect(text).toContain(`- [Configuration](${site.url}/configuration.md)`);
    const full = await (await get(`${site.url}/llms-full.txt`)).text();
    expect(full).toContain('# Getting started');
    expect(full).toContain('Every setting of the flux capacitor');
    expect(full).toContain('{% tabs %}');
  });

  it('serves sitemap.xml and robots.txt', async () => {
    const sitemap = await get(`${site.url}/sitemap.xml`);
    expect(sitemap.status).toBe(200);
    expect(sitemap.headers.get('content-type')).toMatch(/^application\/xml/);
    const xml = await sitemap.text();
    expect(xml).toContain(`<loc>${site.url}/getting-started</loc>`);
    expect(xml).toContain(`<loc>${site.url}/configuration</loc>`);
    const robots = await (await get(`${site.url}/robots.txt`)).text();
    expect(robots).toContain(`Allow: /s/${site.id}/`);
    expect(robots).toContain(`Sitemap: ${site.url}/sitemap.xml`);
  });

  it('searches the space with ?q=', async () => {
    const res = await get(`${site.url}?q=flux`);
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain('<ol class="search-results">');
    expect(html).toContain(`href="/s/${site.id}/configuration"`);
    expect(html).toContain('value="flux"');
    expect(await (await get(`${site.url}?q=zzzqqq`)).text()).toContain('No results.');
  });

  it('answers HTML 404 for unknown pages and sites', async () => {
    const missing = await get(`${site.url}/nope`);
    expect(missing.status).toBe(404);
    expect(missing.headers.get('content-type')).toMatch(/^text\/html/);
    expect(missing.headers.get('cache-control')).toBe('no-store');
    expect((await get(`${api.url}/s/unknownsite`)).status).toBe(404);
  });
});

describe('visibility', () => {
  it('unpublished sites are not served (404), not even robots.txt', async () => {
    const site = await publishedSite(api, org, [space.id], 'public', false);
    for (const path of ['', '/getting-started', '/getting-started.md', '/llms.txt', '/sitemap.xml', '/robots.txt']) {
      expect((await get(`${site.url}${path}`)).status, path).toBe(404);
    }
  });

  it('unlisted: served with noindex, no sitemap, robots disallow', async () => {
    const site = await publishedSite(api, org, [space.id], 'unlisted');
    const res = await get(site.url);
    expect(res.status).toBe(200);
    expect(res.headers.get('x-robots-tag')).toBe('noindex');
    expect(res.headers.get('cache-control')).toBe('public, max-age=60, s-maxage=300');
    expect(await res.text()).toContain('<meta name="robots" content="noindex">');
    expect((await get(`${site.url}/sitemap.xml`)).status).toBe(404);
    expect(await (await get(`${site.url}/robots.txt`)).text()).toBe('User-agent: *\nDisallow: /\n');
    expect((await get(`${site.url}/llms.txt`)).status).toBe(200);
  });

  it('share-link: refused without or with a wrong key, served with an active link (then by cookie)', async () => {
    const site = await publishedSite(api, org, [space.id], 'share-link');
    for (const path of ['', '/getting-started', '/getting-started.md', '/llms.txt', '/llms-full.txt', '?q=flux']) {
      const res = await get(`${site.url}${path}`);
      expect(res.status, path).toBe(401);
      expect(await res.text(), path).not.toContain('Back up your data');
    }
    expect((await get(`${site.url}?share=wrong-key-wrong-key-00`)).status).toBe(401);
    expect((await get(`${site.url}/sitemap.xml`)).status).toBe(404);

    const link = await api.request('POST', `${site.base}/share-links`, { token: org.admin.token, body: { name: 'Partners' } });
    expect(link.status).toBe(201);
    const published = new URL(link.body.urls.published);
    expect(`${published.origin}${published.pathname}`).toBe(site.url);
    const secret = published.searchParams.get('share')!;
    const res = await get(link.body.urls.published);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('private, no-store');
    expect(res.headers.get('x-robots-tag')).toBe('noindex');
    expect(await res.text()).toContain('Back up your data');
    const cookie = res.headers.get('set-cookie')!;
    expect(cookie).toContain(`docs_share_${site.id}=${secret}`);
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toContain(`Path=/s/${site.id}`);
    const byCookie = await get(`${site.url}/configuration.md`, { cookie: cookie.split(';')[0]! });
    expect(byCookie.status).toBe(200);
    expect(await byCookie.text()).toMatch(/^# Configuration/m);

    // A disabled link stops working, in the query and in the cookie.
    expect((await api.request('PATCH', `${site.base}/share-links/${link.body.id}`, { token: org.admin.token, body: { active: false } })).status).toBe(200);
    expect((await get(link.body.urls.published)).status).toBe(401);
    expect((await get(site.url, { cookie: cookie.split(';')[0]! })).status).toBe(401);
  });

  it('visitor-auth: refused without or with a bad JWT, served with one signed with the site key', async () => {
    const site = await publishedSite(api, org, [space.id], 'visitor-auth');
    const none = await get(site.url);
    expect(none.status).toBe(401);
    expect(await none.text()).not.toContain('Back up your data');
    const otherKey = await new SignJWT({ plan: 'pro' }).setProtectedHeader({ alg: 'HS256' }).setExpirationTime('1h').sign(new TextEncoder().encode('not-the-site-key'));
    expect((await get(`${site.url}?jwt_token=${otherKey}`)).status).toBe(401);
    expect((await get(`${site.url}?jwt_token=garbage`)).status).toBe(401);
    const otherSite = await signVisitorToken('someothersite', { plan: 'pro' });
    expect((await get(`${site.url}?jwt_token=${otherSite}`)).status).toBe(401);
    const expired = await signVisitorToken(site.id, { plan: 'pro' }, -120);
    expect((await get(`${site.url}?jwt_token=${expired}`)).status).toBe(401);

    const good = await signVisitorToken(site.id, { plan: 'pro' });
    const res = await get(`${site.url}/getting-started?jwt_token=${good}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('private, no-store');
    expect(await res.text()).toContain('Back up your data');
    const cookie = res.headers.get('set-cookie')!.split(';')[0]!;
    expect(cookie).toBe(`docs_visitor_${site.id}=${good}`);
    expect((await get(`${site.url}/configuration.md`, { cookie })).status).toBe(200);
    expect((await get(`${site.url}/llms.txt`, { cookie })).status).toBe(200);
  });

  it('visitor-auth: the site key is given to org admins only (GET /s/<site>/~visitor-key)', async () => {
    const site = await publishedSite(api, org, [space.id], 'visitor-auth');
    const keyUrl = `${site.url}/~visitor-key`;
    expect((await get(keyUrl)).status).toBe(401);
    const editor = await org.member('edit');
    expect((await get(keyUrl, { authorization: `Bearer ${editor.token}` })).status).toBe(403);
    const outsider = await newOrg();
    expect((await get(keyUrl, { authorization: `Bearer ${outsider.admin.token}` })).status).toBe(404);
    const res = await get(keyUrl, { authorization: `Bearer ${org.admin.token}` });
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('private, no-store');
    const body = (await res.json()) as { key: string };
    expect(body).toMatchObject({ object: 'site-visitor-key', siteId: site.id, algorithm: 'HS256', key: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/) });
    // A token the owner signs with that key is accepted.
    const token = await new SignJWT({ plan: 'free' }).setProtectedHeader({ alg: 'HS256' }).setExpirationTime('10m').sign(new TextEncoder().encode(body.key));
    expect((await get(`${site.url}?jwt_token=${token}`)).status).toBe(200);
  });

  it('visitor-auth: adaptive conditions of site spaces are evaluated against the claims', async () => {
    const extra = await spaceWithPages(api, org, 'Pro features', ['# Pro only\n\nTurbo mode.\n']);
    const site = await publishedSite(api, org, [space.id], 'visitor-auth', true, { adaptive: true });
    const added = await api.request('POST', `${site.base}/site-spaces`, { token: org.admin.token, body: { spaceId: extra.id } });
    expect(added.status).toBe(201);
    expect((await api.request('PATCH', `${site.base}/site-spaces/${added.body.id}`, { token: org.admin.token, body: { condition: "visitor.claims.plan == 'pro'" } })).status).toBe(200);
    const path = added.body.path as string;
    const pro = await signVisitorToken(site.id, { plan: 'pro' });
    const free = await signVisitorToken(site.id, { plan: 'free' });
    const proHome = await (await get(`${site.url}?jwt_token=${pro}`)).text();
    expect(proHome).toContain(`href="/s/${site.id}/${path}"`);
    expect(await (await get(`${site.url}/${path}/pro-only?jwt_token=${pro}`)).text()).toContain('Turbo mode.');
    expect(await (await get(`${site.url}/llms.txt?jwt_token=${pro}`)).text()).toContain('Pro only');
    expect(await (await get(`${site.url}?jwt_token=${free}`)).text()).not.toContain(`/s/${site.id}/${path}"`);
    expect((await get(`${site.url}/${path}/pro-only?jwt_token=${free}`)).status).toBe(404);
    expect(await (await get(`${site.url}/llms.txt?jwt_token=${free}`)).text()).not.toContain('Pro only');
  });
});

describe('sections', () => {
  it('serves each section at its path, with section tabs', async () => {
    const api2 = await spaceWithPages(api, org, 'API', ['# Endpoints\n\nGET /widgets.\n']);
    const site = await publishedSite(api, org, [space.id], 'public');
    // The site's root content becomes a section of the site's name; the new one shows the API space.
    const section = await api.request('POST', `${site.base}/sections`, { token: org.admin.token, body: { spaceId: api2.id, title: 'API Reference' } });
    expect(section.status, JSON.stringify(section.body)).toBe(201);
    const published = (await api.request('GET', `${site.base}/published`, { token: org.admin.token })).body;
    const sections = published.structure.structure as { title: string; path: string; urls: { published: string } }[];
    expect(sections.map((x) => x.title)).toEqual(['Widget Docs', 'API Reference']);
    for (const s of sections) {
      const res = await get(s.urls.published);
      expect(res.status, s.urls.published).toBe(200);
      const html = await res.text();
      expect(html).toContain('<nav class="sections" aria-label="Sections">');
    }
    const apiSection = sections.find((s) => s.title === 'API Reference')!;
    const html = await (await get(`${apiSection.urls.published}/endpoints`)).text();
    expect(html).toContain('GET /widgets.');
    expect(html).toMatch(/aria-current="true">API Reference<\/a>/);
  });
});

describe('conditions', () => {
  const ctx = visitorContext({ plan: 'pro', seats: 5, unsigned: { beta: true } });
  it.each([
    ["visitor.claims.plan == 'pro'", true],
    ['visitor.claims.plan == "free"', false],
    ['visitor.claims.unsigned.beta == true', true],
    ['visitor.claims.unsigned.beta', true],
    ['!visitor.claims.unsigned.beta', false],
    ['visitor.claims.seats >= 5 && visitor.claims.plan != \'free\'', true],
    ['visitor.claims.missing || (visitor.claims.seats < 3)', false],
    ['visitor.claims.constructor', false],
    ['this is not valid', false],
    ['visitor.claims.plan ==', false],
  ])('%s -> %s', (source, expected) => {
    expect(evaluateCondition(source, ctx)).toBe(expected);
  });
});

describe('Lambda handler', () => {
  it('sends markdown, HTML, XML and text as text, not base64', async () => {
    for (const type of ['text/markdown; charset=utf-8', 'text/html; charset=UTF-8', 'text/plain; charset=utf-8', 'application/xml; charset=utf-8', 'application/json']) {
      expect(isContentTypeBinary(type), type).toBe(false);
    }
    expect(isContentTypeBinary('image/png')).toBe(true);
    const res: { statusCode: number; isBase64Encoded: boolean; body: string } = await handler({
      version: '2.0', routeKey: 'GET /s/{proxy+}', rawPath: '/s/unknown-site/page.md', rawQueryString: '', headers: { host: 'example.com' },
      requestContext: { http: { method: 'GET', path: '/s/unknown-site/page.md', protocol: 'HTTP/1.1', sourceIp: '127.0.0.1', userAgent: 'test' }, domainName: 'example.com', stage: '$default', requestId: 'r', routeKey: 'GET /s/{proxy+}', accountId: '1', apiId: 'a', time: '', timeEpoch: 0 },
      isBase64Encoded: false,
    } as never) as never;
    expect(res.statusCode).toBe(404);
    expect(res.isBase64Encoded).toBe(false);
    expect(res.body).toContain('Page not found');
  });
});

describe('layout, files, assets and instant search', () => {
  const png = pngFile(1280, 720, 3);
  let site: { id: string; url: string; base: string };
  beforeAll(async () => {
    const docs = await spaceWithPages(api, org, 'Shots', [IMAGES_MARKDOWN, CONFIG_MARKDOWN], [{ name: 'dashboard.png', contentType: 'image/png', bytes: png }]);
    site = await publishedSite(api, org, [docs.id], 'public');
  });

  it('images have their size, load lazily, from a stable URL under the site (never a presigned one)', async () => {
    const html = await (await get(`${site.url}/screenshots`)).text();
    // srcset/sizes: its resized variant and itself (test/reader-images.test.ts checks them).
    const img = /<img src="([^"]+)" srcset="[^"]+ 752w, [^"]+ 1280w" sizes="[^"]+" alt="The dashboard" width="1280" height="720" loading="lazy" decoding="async">/.exec(html);
    expect(img, html.slice(html.indexOf('<article'), html.indexOf('</article>'))).not.toBeNull();
    expect(img![1]).toMatch(new RegExp(`^/s/${site.id}/~files/[0-9a-f]{64}/dashboard\\.png$`));
    expect(html).not.toMatch(/X-Amz-|Signature=/);
    const file = await get(`${api.url}${img![1]}`);
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toBe('image/png');
    expect(file.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(file.headers.get('content-security-policy')).toBe("default-src 'none'; sandbox");
    expect(Buffer.from(await file.arrayBuffer()).equals(png)).toBe(true);
    expect((await get(`${api.url}${img![1]}`, { 'if-none-match': file.headers.get('etag')! })).status).toBe(304);
    expect((await get(`${site.url}/~files/${'0'.repeat(64)}/dashboard.png`)).status).toBe(404);
  });

  it('files of a share-link site need the share link like its pages', async () => {
    const shared = await publishedSite(api, org, [(await api.request('GET', `${site.base}/site-spaces`, { token: org.admin.token })).body.items[0].space.id], 'share-link');
    const link = await api.request('POST', `${shared.base}/share-links`, { token: org.admin.token, body: { name: 'Files' } });
    const page = await get(link.body.urls.published.replace('?', '/screenshots?'));
    const src = /<img src="([^"]+)"/.exec(await page.text())![1]!;
    expect((await get(`${api.url}${src}`)).status).toBe(401);
    const cookie = page.headers.get('set-cookie')!.split(';')[0]!;
    const file = await get(`${api.url}${src}`, { cookie });
    expect(file.status).toBe(200);
    expect(file.headers.get('cache-control')).toBe('private, max-age=3600');
  });

  it('page layout: breadcrumbs, "On this page", highlighted code with a language label, last updated', async () => {
    const html = await (await get(`${site.url}/screenshots`)).text();
    // A top-level page of a one-space site has no breadcrumb (not the space's internal title;
    // crumbs of subpages and of sites with several spaces: test/reader-layout.test.ts).
    expect(html).not.toContain('class="breadcrumbs"');
    expect(html).not.toContain(`<a href="/s/${site.id}">Shots</a>`);
    expect(html).toContain('<aside class="toc"><nav aria-label="On this page"><p class="toc-title">On this page</p><ul><li class="toc-2"><a href="#script">Script</a></li><li class="toc-2"><a href="#next-steps">Next steps</a></li></ul></nav></aside>');
    expect(html).toMatch(/<figure class="code"><figcaption class="code-header"><span class="code-lang">js<\/span><\/figcaption><pre class="shiki [^"]*" tabindex="0"><code class="language-js"><span class="line"><span class="sk-[0-9a-z]+">const<\/span>/);
    // The date as English writes it (the site's locale, en by default), the instant in `datetime`.
    const updated = /<span>Last updated <time datetime="(\d{4}-\d\d-\d\dT[^"]+)">([^<]+)<\/time><\/span>/.exec(html);
    expect(updated, html).not.toBeNull();
    expect(updated![2]).toBe(new Intl.DateTimeFormat('en', { dateStyle: 'long', timeZone: 'UTC' }).format(new Date(updated![1]!)));
    expect(html).toContain('<a class="menu-link icon-button" href="#sidebar" aria-controls="sidebar">');
  });

  it('serves its stylesheet and script from content-hashed URLs cached for a year, allowed by the CSP as self', async () => {
    const res = await get(`${site.url}/screenshots`);
    const html = await res.text();
    const css = `/s/${site.id}/~assets/${READER_ASSETS.css.file}`;
    const js = `/s/${site.id}/~assets/${READER_ASSETS.js.file}`;
    expect(html).toContain(`<link rel="stylesheet" href="${css}">`);
    expect(html).toContain(`<script src="${js}" defer></script>`);
    expect(res.headers.get('content-security-policy')).toMatch(/script-src 'sha256-[^']+' 'self'; style-src 'sha256-[^']+' 'self';/);
    for (const [path, type] of [[css, 'text/css; charset=utf-8'], [js, 'text/javascript; charset=utf-8']] as const) {
      const asset = await get(`${api.url}${path}`);
      expect(asset.status).toBe(200);
      expect(asset.headers.get('content-type')).toBe(type);
      expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    }
    expect((await get(`${site.url}/~assets/reader.AAAAAAAAAAAA.css`)).status).toBe(404);
    expect((await get(`${site.url}/~assets/favicon.svg?color=zz&glyph=%3Cscript%3E`)).status).toBe(404);
  });

  it('instant search answers JSON grouped by page with its sections; the HTML search page still works', async () => {
    const res = await get(`${site.url}/~search?q=${encodeURIComponent('flux capacitor')}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    const body = await res.json();
    expect(body.query).toBe('flux capacitor');
    expect(body.pages[0]).toMatchObject({ title: 'Configuration', href: `/s/${site.id}/configuration`, breadcrumbs: ['Configuration'] });
    expect(body.pages[0].excerpt + JSON.stringify(body.pages[0].sections)).toContain('flux capacitor');
    const sections = await (await get(`${site.url}/~search?q=answer`)).json();
    expect(sections.pages[0]).toMatchObject({ title: 'Screenshots', sections: [expect.objectContaining({ title: 'Script', href: `/s/${site.id}/screenshots#script` })] });
    expect((await (await get(`${site.url}/~search?q=`)).json()).pages).toEqual([]);
    const page = await (await get(`${site.url}?q=flux`)).text();
    expect(page).toMatch(/<ol class="search-results"><li><a href="[^"]+configuration[^"]*">Configuration<\/a>/);
  });
});

describe('resized images (GitBook writes the size on the figure\'s <img width>)', () => {
  it('are shown at the author\'s width, the height following the file\'s proportions; a percentage stays a percentage', async () => {
    const resized = '# Sizes\n\n<figure><img src=".gitbook/assets/dashboard.png" alt="Small" width="160"><figcaption><p>Small</p></figcaption></figure>\n\n'
      + '<figure><img src=".gitbook/assets/dashboard.png" alt="Half" width="50%"><figcaption><p>Half</p></figcaption></figure>\n\n![Full](.gitbook/assets/dashboard.png)\n';
    const space = await spaceWithPages(api, org, 'Sizes', [resized], [{ name: 'dashboard.png', contentType: 'image/png', bytes: pngFile(320, 200, 4) }]);
    const site = await publishedSite(api, org, [space.id], 'public');
    const html = await (await get(site.url)).text();
    const imgOf = (alt: string) => new RegExp(`<img [^>]*alt="${alt}"[^>]*>`).exec(html)?.[0] ?? '';
    expect(imgOf('Small')).toMatch(/ width="160" height="100"/);
    expect(imgOf('Half')).toContain(' width="50%"');
    expect(imgOf('Half')).not.toContain('height=');
    expect(imgOf('Full')).toMatch(/ width="320" height="200"/);
  });
});

describe('page emoji', () => {
  it('a page emoji written as code points (as GitBook\'s app writes it) shows as the character in the title, navigation and breadcrumbs', async () => {
    const space = await spaceWithPages(api, org, 'Emoji', ['# Launch\n\nReady.\n', '# Team\n\nPeople.\n']);
    const cr = (await api.request('POST', `/spaces/${space.id}/change-requests`, { token: org.admin.token, body: { subject: 'Emoji' } })).body;
    const pages = (await api.request('GET', `/spaces/${space.id}/change-requests/${cr.id}/content/pages`, { token: org.admin.token })).body.pages;
    const [launch, team] = pages as { id: string }[];
    const edited = await api.request('POST', `/spaces/${space.id}/change-requests/${cr.id}/content`, {
      token: org.admin.token,
      body: { changes: [{ operation: 'update_page', page: launch!.id, emoji: '1f680' }, { operation: 'update_page', page: team!.id, emoji: '1f468-200d-1f4bb', into: launch!.id }] },
    });
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    // Not an emoji: refused, naming the field.
    const bad = await api.request('POST', `/spaces/${space.id}/change-requests/${cr.id}/content`, { token: org.admin.token, body: { changes: [{ operation: 'update_page', page: launch!.id, emoji: 'rocket' }] } });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toMatch(/^changes\.0\.emoji: must be an emoji/);
    expect((await api.request('POST', `/spaces/${space.id}/change-requests/${cr.id}/merge`, { token: org.admin.token })).status).toBe(200);
    // The API keeps the code points as given.
    const stored = (await api.request('GET', `/spaces/${space.id}/content/page/${launch!.id}`, { token: org.admin.token })).body;
    expect(stored.emoji).toBe('1f680');
    const site = await publishedSite(api, org, [space.id], 'public');
    const html = await (await get(`${site.url}/launch/team`)).text();
    expect(html).toContain('<h1>👨‍💻 Team</h1>');
    expect(html).toContain('>🚀 Launch</a>');
    expect(html).not.toMatch(/1f680|1f468/);
  });
});

describe("the site's locale (customization internationalization.locale)", () => {
  let docs: { id: string };
  beforeAll(async () => {
    docs = await spaceWithPages(api, org, 'Shots', [IMAGES_MARKDOWN, CONFIG_MARKDOWN], [{ name: 'dashboard.png', contentType: 'image/png', bytes: pngFile(320, 200, 4) }]);
  });

  /** A site showing `docs` with its customization's locale set (through the public PUT). */
  const localized = async (locale: string, visibility = 'public') => {
    const site = await publishedSite(api, org, [docs.id], visibility);
    const settings = (await api.request('GET', `${site.base}/customization`, { token: org.admin.token })).body;
    settings.internationalization = { locale };
    settings.pageActions = { ...settings.pageActions, items: ['markdown', 'pdf'] };
    const put = await api.request('PUT', `${site.base}/customization`, { token: org.admin.token, body: settings });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    return site;
  };
  const dateIn = (lang: string, html: string) => {
    const iso = /<time datetime="([^"]+)">/.exec(html)![1]!;
    return new Intl.DateTimeFormat(lang, { dateStyle: 'long', timeZone: 'UTC' }).format(new Date(iso));
  };
  const clientWords = (html: string) => JSON.parse(/<body data-messages="([^"]*)"/.exec(html)![1]!.replaceAll('&#x22;', '"').replaceAll('&quot;', '"').replaceAll('&#x26;', '&').replaceAll('&amp;', '&'));

  it('fr: the html lang, the layout, navigation, page meta and the script\'s words are French; the content is not translated', async () => {
    const site = await localized('fr');
    const html = await (await get(`${site.url}/screenshots`)).text();
    expect(html).toMatch(/^<!doctype html><html lang="fr"/);
    expect(html).toContain('<a class="skip-link" href="#content">Aller au contenu</a>');
    expect(html).toContain('placeholder="Rechercher…  /" aria-label="Rechercher"');
    expect(html).toContain('role="region" aria-label="Résultats de recherche"');
    expect(html).toContain('>☰ Menu</a>');
    expect(html).toContain('aria-label="Changer de thème"');
    // The breadcrumb's label in French: shared/reader/navigation.test.ts (this top-level page has none).
    expect(html).toContain('<nav aria-label="Sur cette page"><p class="toc-title">Sur cette page</p>');
    expect(html).toContain(`<span>Dernière mise à jour le <time datetime="${/<time datetime="([^"]+)"/.exec(html)![1]}">${dateIn('fr', html)}</time></span>`);
    expect(dateIn('fr', html)).toMatch(/^\d{1,2} [a-zéû]+\.? \d{4}$/);
    expect(html).toContain('>Voir en Markdown</a>');
    expect(html).toContain('>Exporter en PDF</a>');
    expect(html).toMatch(/<nav class="pagination" aria-label="Pagination">[\s\S]*<small>Suivant →<\/small>/);
    // The page's own words stay as written.
    expect(html).toContain('<h1>Screenshots</h1>');
    expect(html).toContain('The dashboard after the first start:');
    expect(clientWords(html)).toMatchObject({ copy: 'Copier', copied: 'Copié', searchNoResultsFor: 'Aucun résultat pour «\u00a0{query}\u00a0».' });
    expect((await get(`${site.url}/configuration`)).status).toBe(200);
    expect(await (await get(`${site.url}/configuration`)).text()).toMatch(/<small>← Précédent<\/small>/);
  });

  it('fr: the 404 inside the site, the no-JavaScript search page and an access refusal are French', async () => {
    const site = await localized('fr');
    const missing = await get(`${site.url}/no-such-page`);
    expect(missing.status).toBe(404);
    const notFound = await missing.text();
    expect(notFound).toContain('<title>Page introuvable · Widget Docs</title>');
    expect(notFound).toContain('<h1>Page introuvable</h1>');
    expect(notFound).toContain(`<p>Aucune page ne se trouve à cette adresse\u00a0: elle a peut-être été déplacée ou supprimée. Recherchez-la, parcourez les pages ou revenez à <a href="/s/${site.id}">Shots</a>.</p>`);
    const search = await (await get(`${site.url}?q=zzqqxx`)).text();
    expect(search).toContain('<h1>Résultats de recherche pour «\u00a0zzqqxx\u00a0»</h1>');
    expect(search).toContain('<p class="no-results">Aucun résultat.</p>');
    expect(search).toContain('<title>Recherche\u00a0: zzqqxx · Widget Docs</title>');
    const found = await (await get(`${site.url}?q=flux`)).text();
    expect(found).toMatch(/<ol class="search-results"><li><a href="[^"]+configuration[^"]*">Configuration<\/a>/);

    const shared = await localized('fr', 'share-link');
    const refused = await get(shared.url);
    expect(refused.status).toBe(401);
    const page = await refused.text();
    expect(page).toMatch(/^<!doctype html><html lang="fr"/);
    expect(page).toContain('<h1>Accès restreint</h1><p>Ce site n’est accessible que par un lien de partage.</p>');
  });

  it("fr: an English space's article says it is English (the page's lang is the site's)", async () => {
    const english = await spaceWithPages(api, org, 'English guide', ['# Welcome\n\nHello.\n']);
    expect((await api.request('PATCH', `/spaces/${english.id}`, { token: org.admin.token, body: { language: 'en' } })).status).toBe(200);
    const site = await publishedSite(api, org, [english.id], 'public');
    const settings = (await api.request('GET', `${site.base}/customization`, { token: org.admin.token })).body;
    settings.internationalization = { locale: 'fr' };
    expect((await api.request('PUT', `${site.base}/customization`, { token: org.admin.token, body: settings })).status).toBe(200);
    const html = await (await get(site.url)).text();
    expect(html).toMatch(/^<!doctype html><html lang="fr"/);
    expect(html).toContain('<article lang="en"><h1>Welcome</h1>');
  });

  it('ja: a non-Latin locale, its date written the Japanese way', async () => {
    const site = await localized('ja');
    const html = await (await get(`${site.url}/screenshots`)).text();
    expect(html).toMatch(/^<!doctype html><html lang="ja"/);
    expect(html).toContain('<a class="skip-link" href="#content">コンテンツへスキップ</a>');
    expect(html).toContain('<p class="toc-title">このページの内容</p>');
    expect(html).toContain(`<span>最終更新: <time datetime="${/<time datetime="([^"]+)"/.exec(html)![1]}">${dateIn('ja', html)}</time></span>`);
    expect(dateIn('ja', html)).toMatch(/^\d{4}年\d{1,2}月\d{1,2}日$/);
    expect(html).toContain('<small>次へ →</small>');
    expect(clientWords(html)).toMatchObject({ copy: 'コピー', searchNoResultsFor: '「{query}」に一致する結果はありません。' });
    const search = await (await get(`${site.url}?q=zzqqxx`)).text();
    expect(search).toContain('<h1>「zzqqxx」の検索結果</h1>');
    expect(search).toContain('<p class="no-results">一致する結果はありません。</p>');
    expect(await (await get(`${site.url}/no-such-page`)).text()).toContain('<h1>ページが見つかりません</h1>');
  });

  it('en (the default, and what an explicit en gives): the words as before', async () => {
    for (const site of [await publishedSite(api, org, [docs.id], 'public'), await localized('en')]) {
      const html = await (await get(`${site.url}/screenshots`)).text();
      expect(html).toMatch(/^<!doctype html><html lang="en"/);
      expect(html).toContain('<a class="skip-link" href="#content">Skip to content</a>');
      expect(html).toContain('placeholder="Search…  /" aria-label="Search"');
      expect(html).toContain('<nav aria-label="On this page"><p class="toc-title">On this page</p>');
      expect(html).toContain('<small>Next →</small>');
      expect(html).toContain('>☰ Menu</a>');
      expect(clientWords(html)).toEqual({ copy: 'Copy', copied: 'Copied', searchNoResultsFor: 'No results for “{query}”.', switchToLight: 'Switch to light mode', switchToDark: 'Switch to dark mode' });
      expect(await (await get(`${site.url}?q=zzqqxx`)).text()).toContain('<p class="no-results">No results.</p>');
    }
  });
});
