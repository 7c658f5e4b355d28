import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateKeyPair, SignJWT } from 'jose';
import type { Browser } from 'playwright-core';
import { newOrg, useTestApi, type TestOrg } from './support/api.ts';
import { GUIDE_MARKDOWN, publishedSite, spaceWithPages } from './support/reader-site.ts';
import { siteVisitorKey, signVisitorToken } from '../shared/reader/visitor.ts';
import { HAS_CHROMIUM, launchChromium } from './support/chromium.ts';

/**
 * Visitor authentication and share links as a visitor and an attacker use them, over HTTP:
 * tokens that must be refused, how the credential travels (URL -> cookie, then out of the
 * URL), and caching of pages that depend on who asks.
 */

const api = useTestApi();
let org: TestOrg;
let space: { id: string; title: string };
let site: { id: string; url: string; base: string };

beforeAll(async () => {
  org = await newOrg();
  space = await spaceWithPages(api, org, 'Guide', [GUIDE_MARKDOWN, '# Plans\n\n{% if visitor.claims.plan == "pro" %}\nPro seats are unlimited.\n{% endif %}\n']);
  site = await publishedSite(api, org, [space.id], 'visitor-auth', true, { adaptive: true });
});

const get = (url: string, headers: Record<string, string> = {}) => fetch(url, { headers, redirect: 'manual' });

/** A GET with exactly these headers (fetch replaces `Sec-Fetch-Mode` with its own). */
function navigate(url: string, headers: Record<string, string> = {}): Promise<{ status: number; headers: Headers; text: () => Promise<string> }> {
  return new Promise((resolve, reject) => {
    request(url, { headers: { ...NAVIGATE, ...headers } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const out = new Headers();
        for (const [name, value] of Object.entries(res.headers)) if (value !== undefined) out.set(name, Array.isArray(value) ? value.join(', ') : value);
        resolve({ status: res.statusCode!, headers: out, text: async () => Buffer.concat(chunks).toString('utf8') });
      });
    }).on('error', reject).end();
  });
}
const b64 = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
const inAnHour = () => Math.floor(Date.now() / 1000) + 3600;
/** What a browser sends when the visitor follows a link or types the address. */
const NAVIGATE = { 'sec-fetch-mode': 'navigate', 'sec-fetch-dest': 'document' };

describe('visitor tokens an attacker might try', () => {
  it('are refused with the access page (401, no content, never a 500)', async () => {
    const key = new TextEncoder().encode(await siteVisitorKey(site.id));
    const good = await signVisitorToken(site.id, { plan: 'pro' });
    const [header, , signature] = good.split('.');
    const rsa = await generateKeyPair('RS256');
    const attempts: Record<string, string> = {
      'alg none': `${b64({ alg: 'none', typ: 'JWT' })}.${b64({ plan: 'pro', exp: inAnHour() })}.`,
      'RS256 (public/secret key confusion)': await new SignJWT({ plan: 'pro' }).setProtectedHeader({ alg: 'RS256' }).setExpirationTime('1h').sign(rsa.privateKey),
      'HS512 with the site key': await new SignJWT({ plan: 'pro' }).setProtectedHeader({ alg: 'HS512' }).setExpirationTime('1h').sign(key),
      'payload swapped under a valid signature': `${header}.${b64({ plan: 'enterprise', exp: inAnHour() })}.${signature}`,
      'not yet valid (nbf in an hour)': await new SignJWT({ plan: 'pro' }).setProtectedHeader({ alg: 'HS256' }).setNotBefore(inAnHour()).setExpirationTime('2h').sign(key),
      expired: await signVisitorToken(site.id, { plan: 'pro' }, -60),
      'signed for another site': await signVisitorToken('another-site', { plan: 'pro' }),
      malformed: 'a.b.c',
      'not base64': '%%%.***.!!!',
    };
    for (const [name, token] of Object.entries(attempts)) {
      for (const res of [await get(`${site.url}/plans?jwt_token=${encodeURIComponent(token)}`), await get(`${site.url}/plans`, { cookie: `docs_visitor_${site.id}=${encodeURIComponent(token)}` })]) {
        expect(res.status, name).toBe(401);
        expect(res.headers.get('cache-control'), name).toBe('no-store');
        const html = await res.text();
        expect(html, name).toContain('Access restricted');
        expect(html, name).not.toContain('Pro seats');
      }
    }
    // A huge token (or share key) is refused unread, with the same page (not a 404, not a 500).
    const huge = await get(`${site.url}/plans?jwt_token=${'a'.repeat(9000)}`);
    expect(huge.status).toBe(401);
    expect(await huge.text()).toContain('Access restricted');
    const shared = await publishedSite(api, org, [space.id], 'share-link');
    const longKey = await get(`${shared.url}?share=${'k'.repeat(300)}`);
    expect(longKey.status).toBe(401);
    expect(await longKey.text()).toContain('Access restricted');
  });
});

describe('the credential in the URL', () => {
  it('a browser navigation gets the cookie and a redirect to the same address without the token', async () => {
    const token = await signVisitorToken(site.id, { plan: 'pro' });
    const res = await navigate(`${site.url}/plans?visitor.beta=true&jwt_token=${token}`);
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe(`/s/${site.id}/plans?visitor.beta=true`);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.headers.get('referrer-policy')).toBe('no-referrer');
    const cookie = res.headers.get('set-cookie')!;
    expect(cookie).toContain(`docs_visitor_${site.id}=${token}`);
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Lax/i);
    expect(cookie).toContain(`Path=/s/${site.id}`);
    expect(await res.text()).not.toContain('Pro seats');
    const page = await navigate(`${api.url}${res.headers.get('location')}`, { cookie: cookie.split(';')[0]! });
    expect(page.status).toBe(200);
    expect(page.headers.get('cache-control')).toBe('private, no-store');
    expect(await page.text()).toContain('Pro seats are unlimited.');

    // A bad token is not redirected away: the visitor sees why they are refused.
    expect((await navigate(`${site.url}/plans?jwt_token=bad`)).status).toBe(401);
    // Tools without a cookie jar (fetching .md with the token in every URL) are answered directly.
    const tool = await get(`${site.url}/plans.md?jwt_token=${token}`);
    expect(tool.status).toBe(200);
    expect(await tool.text()).toContain('Pro seats are unlimited.');
  });

  it('a share link\'s secret leaves the address bar the same way', async () => {
    const shared = await publishedSite(api, org, [space.id], 'share-link');
    const link = await api.request('POST', `${shared.base}/share-links`, { token: org.admin.token, body: { name: 'Partners' } });
    expect(link.status).toBe(201);
    const res = await navigate(link.body.urls.published);
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe(`/s/${shared.id}`);
    const cookie = res.headers.get('set-cookie')!.split(';')[0]!;
    expect((await navigate(`${api.url}/s/${shared.id}`, { cookie })).status).toBe(200);
    // Disabled: the cookie stops working at once.
    expect((await api.request('PATCH', `${shared.base}/share-links/${link.body.id}`, { token: org.admin.token, body: { active: false } })).status).toBe(200);
    expect((await navigate(`${api.url}/s/${shared.id}`, { cookie })).status).toBe(401);
  });
});

describe('the visitor cookie', () => {
  it('lasts as long as the token: its remaining lifetime, or the browser session for a token without exp', async () => {
    const key = new TextEncoder().encode(await siteVisitorKey(site.id));
    const timed = await get(`${site.url}/plans?jwt_token=${await signVisitorToken(site.id, { plan: 'pro' }, 7200)}`);
    expect(timed.status).toBe(200);
    const maxAge = Number(/Max-Age=(\d+)/i.exec(timed.headers.get('set-cookie')!)?.[1]);
    expect(maxAge).toBeGreaterThan(7100);
    expect(maxAge).toBeLessThanOrEqual(7200);
    // Without exp: a session cookie, not one that logs the visitor out after a minute.
    const endless = await new SignJWT({ plan: 'pro' }).setProtectedHeader({ alg: 'HS256' }).sign(key);
    const res = await get(`${site.url}/plans?jwt_token=${endless}`);
    expect(res.status).toBe(200);
    const cookie = res.headers.get('set-cookie')!;
    expect(cookie).toContain(`docs_visitor_${site.id}=${endless}`);
    expect(cookie).not.toMatch(/Max-Age|Expires/i);
  });

  it('a refused cookie (expired token, disabled share link) is removed, so the browser stops sending it', async () => {
    const expired = await signVisitorToken(site.id, { plan: 'pro' }, -60);
    const res = await get(`${site.url}/plans`, { cookie: `docs_visitor_${site.id}=${expired}` });
    expect(res.status).toBe(401);
    const cleared = res.headers.get('set-cookie')!;
    expect(cleared).toMatch(new RegExp(`^docs_visitor_${site.id}=;`));
    expect(cleared).toMatch(/Max-Age=0/i);
    expect(cleared).toContain(`Path=/s/${site.id}`);
    // A wrong token in the URL leaves the visitor's (valid) cookie alone.
    expect((await get(`${site.url}/plans?jwt_token=bad`, { cookie: `docs_visitor_${site.id}=${expired}` })).headers.get('set-cookie')).toBeNull();

    const shared = await publishedSite(api, org, [space.id], 'share-link');
    const link = await api.request('POST', `${shared.base}/share-links`, { token: org.admin.token, body: { name: 'Once' } });
    const opened = await get(link.body.urls.published);
    const cookie = opened.headers.get('set-cookie')!.split(';')[0]!;
    expect((await api.request('PATCH', `${shared.base}/share-links/${link.body.id}`, { token: org.admin.token, body: { active: false } })).status).toBe(200);
    const refused = await get(shared.url, { cookie });
    expect(refused.status).toBe(401);
    expect(refused.headers.get('set-cookie')).toMatch(new RegExp(`^docs_share_${shared.id}=;.*Max-Age=0`, 'i'));
  });

  it('the application\'s docs-visitor-token cookie (set on a parent domain at sign-in) opens the site; a refused one is not the service\'s to clear', async () => {
    const pro = await signVisitorToken(site.id, { plan: 'pro' });
    const opened = await get(`${site.url}/plans`, { cookie: `docs-visitor-token=${pro}` });
    expect(opened.status).toBe(200);
    expect(opened.headers.get('cache-control')).toBe('private, no-store');
    expect(await opened.text()).toContain('Pro seats are unlimited.');
    expect(opened.headers.get('set-cookie')).toBeNull();
    // The service's own cookie comes first; a token of another site or an expired one is the 401 page.
    const elsewhere = await publishedSite(api, org, [space.id], 'visitor-auth');
    for (const token of [await signVisitorToken(elsewhere.id, { plan: 'pro' }), await signVisitorToken(site.id, { plan: 'pro' }, -60)]) {
      const refused = await get(`${site.url}/plans`, { cookie: `docs-visitor-token=${token}` });
      expect(refused.status).toBe(401);
      expect(await refused.text()).not.toContain('Pro seats');
      expect(refused.headers.get('set-cookie')).toBeNull();
    }
  });

  it('a member\'s ping JWT (serviceVisitorClaims) opens no site', async () => {
    const ping = await api.request('POST', `/orgs/${org.id}/ping`, { token: org.admin.token });
    expect(ping.status).toBe(200);
    expect((await get(`${site.url}/plans?jwt_token=${ping.body.serviceVisitorClaims}`)).status).toBe(401);
  });
});

describe('caching of pages that depend on the visitor', () => {
  it('never validates one visitor\'s page for another (no 304 across claims)', async () => {
    const pro = await signVisitorToken(site.id, { plan: 'pro' });
    const free = await signVisitorToken(site.id, { plan: 'free' });
    const first = await get(`${site.url}/plans`, { cookie: `docs_visitor_${site.id}=${pro}` });
    const etag = first.headers.get('etag')!;
    expect(first.headers.get('cache-control')).toBe('private, no-store');
    const other = await get(`${site.url}/plans`, { cookie: `docs_visitor_${site.id}=${free}`, 'if-none-match': etag });
    expect(other.status).toBe(200);
    expect(other.headers.get('etag')).not.toBe(etag);
    expect(await other.text()).not.toContain('Pro seats');
  });
});

describe.skipIf(!HAS_CHROMIUM)('in Chromium', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('the token is not left in the address bar nor in the history', async () => {
    const token = await signVisitorToken(site.id, { plan: 'pro' });
    const context = await browser.newContext();
    const page = await context.newPage();
    const res = await page.goto(`${site.url}/plans?jwt_token=${token}`);
    expect(res?.status()).toBe(200);
    expect(page.url()).toBe(`${site.url}/plans`);
    expect(await page.locator('article').innerText()).toContain('Pro seats are unlimited.');
    await page.goto(`${site.url}/getting-started`);
    await page.goBack();
    expect(page.url()).toBe(`${site.url}/plans`);
    await context.close();
  });

  it('a token too long for a cookie is not redirected away: the page shows (the token stays in the URL)', async () => {
    const token = await signVisitorToken(site.id, { plan: 'pro', groups: Array.from({ length: 400 }, (_, i) => `group-${i}`) });
    expect(token.length).toBeGreaterThan(4096);
    const context = await browser.newContext();
    const page = await context.newPage();
    const res = await page.goto(`${site.url}/plans?jwt_token=${token}`);
    expect(res?.status()).toBe(200);
    expect(await page.locator('article').innerText()).toContain('Pro seats are unlimited.');
    await context.close();
  });
});
