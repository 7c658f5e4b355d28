import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { HAS_CHROMIUM, launchChromium } from './support/chromium.ts';
import { newOrg, useTestApi, type TestOrg } from './support/api.ts';
import { publishedSite, spaceWithPages } from './support/reader-site.ts';
import { readPdf } from './support/pdf-text.ts';
import { signVisitorToken } from '../shared/reader/visitor.ts';
import { evaluateCondition, visitorContext } from '../shared/reader/conditions.ts';

/**
 * Adaptive content blocks (`{% if %}`) on published sites, over HTTP: shown to the visitors
 * whose claims satisfy them, and absent from every other output of the page for the others
 * (HTML, `.md`, llms-full.txt, PDF, search).
 */

const api = useTestApi();
let org: TestOrg;
let space: { id: string; title: string };

const PRICING = `# Pricing

Every plan includes the widget.

{% if visitor.claims.plan == "pro" %}
Pro customers get the quasar turbocharger.
{% endif %}

{% if visitor.claims.unsigned.beta == true %}
Beta testers see the nebula preview.
{% endif %}

{% if visitor.claims.products.includes('sso') && !visitor.claims.trial %}
Single sign-on is configured under Security.
{% endif %}
`;

beforeAll(async () => {
  org = await newOrg();
  space = await spaceWithPages(api, org, 'Plans', [PRICING]);
});

const get = (url: string, headers: Record<string, string> = {}) => fetch(url, { headers, redirect: 'manual' });
const body = async (url: string) => (await get(url)).text();
const pdfText = async (bytes: Uint8Array) => (await readPdf(bytes)).text;


describe('adaptive content blocks', () => {
  it('visitor-auth: a block shows to visitors whose signed claims hold, and is in no output for the others', async () => {
    const site = await publishedSite(api, org, [space.id], 'visitor-auth', true, { adaptive: true });
    const current = (await api.request('GET', `${site.base}/customization`, { token: org.admin.token })).body;
    delete current.updatedAt;
    current.pageActions = { items: ['markdown', 'pdf'] };
    expect((await api.request('PUT', `${site.base}/customization`, { token: org.admin.token, body: current })).status).toBe(200);
    const pro = await signVisitorToken(site.id, { plan: 'pro' });
    const free = await signVisitorToken(site.id, { plan: 'free' });

    const proPage = await body(`${site.url}/pricing?jwt_token=${pro}`);
    expect(proPage).toContain('Every plan includes the widget.');
    expect(proPage).toContain('quasar turbocharger');
    expect(await body(`${site.url}/pricing.md?jwt_token=${pro}`)).toContain('quasar turbocharger');
    expect(await pdfText(new Uint8Array(await (await get(`${site.url}/pricing.pdf?jwt_token=${pro}`)).arrayBuffer()))).toContain('quasar turbocharger');

    const freePage = await body(`${site.url}/pricing?jwt_token=${free}`);
    expect(freePage).toContain('Every plan includes the widget.');
    expect(freePage).not.toContain('quasar');
    const markdown = await body(`${site.url}/pricing.md?jwt_token=${free}`);
    expect(markdown).toContain('Every plan includes the widget.');
    expect(markdown).not.toContain('quasar');
    // Nor its condition: the export prints what the visitor sees, not the author's markup.
    expect(markdown).not.toContain('visitor.claims');
    const full = await body(`${site.url}/llms-full.txt?jwt_token=${free}`);
    expect(full).toContain('Every plan includes the widget.');
    expect(full).not.toContain('quasar');
    const freePdf = await get(`${site.url}/pricing.pdf?jwt_token=${free}`);
    expect(freePdf.status).toBe(200);
    const pdf = await pdfText(new Uint8Array(await freePdf.arrayBuffer()));
    expect(pdf).toContain('Every plan includes the widget.');
    expect(pdf).not.toContain('quasar');

    // A signed claim cannot be given as an unsigned one (`?visitor.plan=pro`).
    expect(await body(`${site.url}/pricing?jwt_token=${free}&visitor.plan=pro`)).not.toContain('quasar');
  });

  it('conditions are JavaScript expressions as GitBook writes them (array includes), never run as code', async () => {
    const site = await publishedSite(api, org, [space.id], 'visitor-auth', true, { adaptive: true });
    const withSso = await body(`${site.url}/pricing?jwt_token=${await signVisitorToken(site.id, { products: ['docs', 'sso'] })}`);
    expect(withSso).toContain('Single sign-on is configured under Security.');
    const trial = await body(`${site.url}/pricing?jwt_token=${await signVisitorToken(site.id, { products: ['sso'], trial: true })}`);
    expect(trial).not.toContain('Single sign-on');
    const without = await body(`${site.url}/pricing?jwt_token=${await signVisitorToken(site.id, { products: ['docs'] })}`);
    expect(without).not.toContain('Single sign-on');
  });

  it('header links with a condition show only to visitors whose claims hold it', async () => {
    const site = await publishedSite(api, org, [space.id], 'visitor-auth', true, { adaptive: true });
    const settings = (await api.request('GET', `${site.base}/customization`, { token: org.admin.token })).body;
    delete settings.updatedAt;
    settings.header.links = [
      { title: 'Status', to: { kind: 'url', url: 'https://status.example.com/' }, links: [] },
      { title: 'Billing portal', to: { kind: 'url', url: 'https://billing.example.com/' }, links: [], condition: "visitor.claims.plan == 'pro'" },
    ];
    const saved = await api.request('PUT', `${site.base}/customization`, { token: org.admin.token, body: settings });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    const pro = await body(`${site.url}/pricing?jwt_token=${await signVisitorToken(site.id, { plan: 'pro' })}`);
    expect(pro).toContain('https://status.example.com/');
    expect(pro).toContain('https://billing.example.com/');
    const free = await body(`${site.url}/pricing?jwt_token=${await signVisitorToken(site.id, { plan: 'free' })}`);
    expect(free).toContain('https://status.example.com/');
    expect(free).not.toContain('billing.example.com');
    expect(free).not.toContain('Billing portal');
  });

  it('search never finds or quotes conditional content (one index serves every visitor)', async () => {
    const site = await publishedSite(api, org, [space.id], 'visitor-auth', true, { adaptive: true });
    const free = await signVisitorToken(site.id, { plan: 'free' });
    const pro = await signVisitorToken(site.id, { plan: 'pro' });
    for (const token of [free, pro]) {
      const json = await (await get(`${site.url}/~search?q=quasar&jwt_token=${token}`)).json() as { pages: unknown[] };
      expect(json.pages).toEqual([]);
      expect(JSON.stringify(json)).not.toContain('turbocharger');
      expect(await body(`${site.url}?q=turbocharger&jwt_token=${token}`)).not.toContain('Pro customers');
    }
    // Unconditional text is still found.
    const found = await (await get(`${site.url}/~search?q=widget&jwt_token=${free}`)).json() as { pages: { title: string }[] };
    expect(found.pages.map((p) => p.title)).toEqual(['Pricing']);
  });

  it('public: unsigned claims (`?visitor.<name>=`) drive conditions on unsigned claims, each rendering its own ETag', async () => {
    const site = await publishedSite(api, org, [space.id], 'public', true, { adaptive: true });
    const plain = await get(`${site.url}/pricing`);
    const beta = await get(`${site.url}/pricing?visitor.beta=true`);
    expect(await plain.text()).not.toContain('nebula');
    expect(await beta.text()).toContain('Beta testers see the nebula preview.');
    expect(beta.headers.get('etag')).not.toBe(plain.headers.get('etag'));
    // The beta page's ETag does not validate the plain page's cached copy, nor the other way round.
    expect((await get(`${site.url}/pricing?visitor.beta=true`, { 'if-none-match': plain.headers.get('etag')! })).status).toBe(200);
    expect((await get(`${site.url}/pricing`, { 'if-none-match': beta.headers.get('etag')! })).status).toBe(200);
    // Unsigned claims never satisfy a condition on a signed claim.
    expect(await body(`${site.url}/pricing?visitor.plan=pro`)).not.toContain('quasar');
  });

  it('public: claims from the application\'s cookies (a JSON object of unsigned claims, a signed token) drive conditions, and make the page private', async () => {
    const site = await publishedSite(api, org, [space.id], 'public', true, { adaptive: true });
    const other = await publishedSite(api, org, [space.id], 'public', true, { adaptive: true });
    const withCookie = (cookie: string) => get(`${site.url}/pricing`, { cookie });
    const publicCookie = (value: unknown) => `docs-visitor-public=${encodeURIComponent(JSON.stringify(value))}`;

    const plain = await withCookie('unrelated=1');
    expect(plain.headers.get('cache-control')).toMatch(/^public/);
    // The public page depends on the cookies being absent: a browser given them asks again.
    expect(plain.headers.get('vary')).toMatch(/^Cookie\b/);
    // fetch asks for gzip: the page's kept gzip adds to that Vary, it does not replace it.
    expect(plain.headers.get('vary')).toMatch(/^Cookie, Accept-Encoding$/);
    const plainText = await plain.text();
    for (const hidden of ['quasar', 'nebula']) expect(plainText).not.toContain(hidden);

    const beta = await withCookie(publicCookie({ beta: true, plan: 'pro' }));
    const betaText = await beta.text();
    expect(betaText).toContain('Beta testers see the nebula preview.');
    // A public cookie's claims are unsigned: they never satisfy a condition on a signed claim.
    expect(betaText).not.toContain('quasar');
    expect(beta.headers.get('cache-control')).toBe('private, no-store');
    // `?visitor.` parameters override the cookie.
    expect(await (await get(`${site.url}/pricing?visitor.beta=false`, { cookie: publicCookie({ beta: true }) })).text()).not.toContain('nebula');

    const pro = await signVisitorToken(site.id, { plan: 'pro', products: ['sso'] });
    const asPro = await withCookie(`docs-visitor-token=${pro}`);
    const proText = await asPro.text();
    expect(proText).toContain('Pro customers get the quasar turbocharger.');
    expect(proText).toContain('Single sign-on is configured under Security.');
    expect(asPro.headers.get('cache-control')).toBe('private, no-store');
    expect(await body(`${site.url}/pricing.md`)).not.toContain('quasar');
    expect(await (await get(`${site.url}/pricing.md`, { cookie: `docs-visitor-token=${pro}` })).text()).toContain('quasar');

    // A token of another site, a forged or expired one, and cookies that are not claims are
    // ignored: the public page, never an error.
    const forged = `${pro.slice(0, -4)}AAAA`;
    const expired = await signVisitorToken(site.id, { plan: 'pro' }, -60);
    const elsewhere = await signVisitorToken(other.id, { plan: 'pro' });
    const ignored = [
      `docs-visitor-token=${forged}`, `docs-visitor-token=${expired}`, `docs-visitor-token=${elsewhere}`, `docs-visitor-token=${'a'.repeat(5000)}`,
      publicCookie({ ['__proto__']: { beta: true } }), publicCookie({ constructor: { beta: true } }), publicCookie([{ beta: true }]),
      publicCookie({ beta: { nested: true } }), 'docs-visitor-public=%7Bnot json', publicCookie({ beta: true, pad: 'x'.repeat(4000) }),
    ];
    for (const cookie of ignored) {
      const res = await withCookie(cookie);
      expect(res.status, cookie.slice(0, 80)).toBe(200);
      const text = await res.text();
      for (const hidden of ['quasar', 'nebula']) expect(text, cookie.slice(0, 80)).not.toContain(hidden);
    }
    expect(({} as Record<string, unknown>).beta).toBeUndefined();
  });

  it('a site without adaptive content enabled reads no claims: conditional content stays hidden, one page for every visitor', async () => {
    const site = await publishedSite(api, org, [space.id], 'visitor-auth');
    const stored = await api.request('GET', site.base, { token: org.admin.token });
    expect(stored.body.adaptiveContent).toEqual({ enabled: false });
    const pro = await signVisitorToken(site.id, { plan: 'pro', products: ['sso'], unsigned: { beta: true } });
    const free = await signVisitorToken(site.id, { plan: 'free' });
    const asPro = await get(`${site.url}/pricing?visitor.beta=true&jwt_token=${pro}`);
    const asFree = await get(`${site.url}/pricing?jwt_token=${free}`);
    expect(asPro.status).toBe(200);
    const page = await asPro.text();
    expect(page).toContain('Every plan includes the widget.');
    for (const hidden of ['quasar', 'nebula', 'Single sign-on']) expect(page).not.toContain(hidden);
    expect(await asFree.text()).toBe(page);
    expect(asPro.headers.get('etag')).toBe(asFree.headers.get('etag'));
    // A public site without adaptive content reads no cookie: its pages do not vary on them.
    const open = await publishedSite(api, org, [space.id], 'public');
    const openPage = await get(`${open.url}/pricing`);
    expect(openPage.headers.get('cache-control')).toMatch(/^public/);
    expect(openPage.headers.get('vary') ?? '').not.toMatch(/Cookie/);
    expect(await body(`${site.url}/pricing.md?jwt_token=${pro}`)).not.toContain('quasar');
    // Nor are the application's cookies read.
    const cookies = `docs-visitor-public=${encodeURIComponent('{"beta":true}')}; docs-visitor-token=${pro}`;
    expect(await (await get(`${site.url}/pricing?jwt_token=${pro}`, { cookie: cookies })).text()).toBe(page);

    // Enabled, the same token's claims apply at once.
    expect((await api.request('PATCH', site.base, { token: org.admin.token, body: { adaptiveContent: { enabled: true } } })).status).toBe(200);
    expect(await body(`${site.url}/pricing?jwt_token=${pro}`)).toContain('Pro customers get the quasar turbocharger.');
  });
});

describe.skipIf(!HAS_CHROMIUM)('adaptive content from cookies, in Chromium', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('the page follows the cookie the application sets, at once: the browser keeps no copy of a page made for one visitor', async () => {
    const site = await publishedSite(api, org, [space.id], 'public', true, { adaptive: true });
    const url = new URL(`${site.url}/pricing`);
    const context = await browser.newContext();
    const page = await context.newPage();
    const setCookie = (name: string, value: string) => context.addCookies([{ name, value, domain: url.hostname, path: '/' }]);
    const main = () => page.locator('main').innerText();

    await page.goto(url.href);
    expect(await main()).not.toContain('nebula');
    // The application signs its user in: the public cookie says beta, the token says pro.
    await setCookie('docs-visitor-public', encodeURIComponent(JSON.stringify({ beta: true })));
    await setCookie('docs-visitor-token', await signVisitorToken(site.id, { plan: 'pro' }));
    await page.goto(url.href);
    expect(await main()).toContain('Beta testers see the nebula preview.');
    expect(await main()).toContain('Pro customers get the quasar turbocharger.');
    // The application signs its user out (the cookies go): the next view is the public page again.
    await context.clearCookies();
    await page.goto(url.href);
    expect(await main()).not.toContain('nebula');
    expect(await main()).not.toContain('quasar');
    await context.close();
  });
});

describe('condition expressions', () => {
  const ctx = visitorContext({ plan: 'pro', seats: 5, products: ['docs', 'sso'], email: 'ada@example.com', unsigned: { beta: true } });
  it.each([
    ["visitor.claims.products.includes('sso')", true],
    ["visitor.claims.products.includes('billing')", false],
    ["visitor.claims.email.endsWith('@example.com') && visitor.claims.email.startsWith('ada')", true],
    ["visitor.claims.plan === 'pro' ? visitor.claims.seats > 3 : false", true],
    ["visitor.claims['plan'] !== 'free'", true],
    ["['pro', 'enterprise'].includes(visitor.claims.plan)", true],
    ['visitor.claims.products.length >= 2', true],
    ['visitor.claims.seats > "4"', false],
    // Never code: no constructors, prototypes, globals, assignments, other calls.
    ["visitor.claims.constructor.constructor('return process')()", false],
    ['visitor.claims.__proto__', false],
    ["visitor.claims.plan.constructor.name == 'String'", false],
    ['process.exit(1)', false],
    ['globalThis', false],
    ['this', false],
    ["visitor.claims.plan = 'pro'", false],
    ["visitor.claims.email.replace('a', 'b') == 'bda@example.com'", false],
    ["visitor.claims.products.map(x => x)", false],
    ['(1, 2)', false],
    [`${'('.repeat(200)}true${')'.repeat(200)}`, true],
    // Nesting deeper than 64 operators is refused, not recursed into.
    [`${'!'.repeat(200)}true`, false],
    [`visitor.claims.plan == '${'x'.repeat(1100)}' || true`, false],
  ])('%s -> %s', (source, expected) => {
    expect(evaluateCondition(source, ctx)).toBe(expected);
  });
});
