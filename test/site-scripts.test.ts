import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { newOrg, useTestApi, type TestOrg } from './support/api.ts';
import { GUIDE_MARKDOWN, publishedSite, spaceWithPages } from './support/reader-site.ts';
import { buildFixture } from './fixtures/integrations/build.ts';
import { integrationClient, uniqueName } from './support/integrations.ts';
import { useLoopbackServer } from './support/loopback-server.ts';
import { SCRIPT_WAIT_MS } from '../shared/reader/site-scripts.ts';
import { launchChromium, RUN_BROWSER_TESTS } from './support/chromium.ts';

/**
 * Published-site scripts (shared/reader/site-scripts.ts): an installed integration with the
 * `site:script:inject` scope answers `fetch_published_script`; the reader's pages load that
 * script, their CSP gains the integration's policy, and the published profile lists it. A
 * script of an integration that is not installed is nowhere; a hanging one costs the page nothing.
 */
const api = useTestApi();
const client = (token: string) => integrationClient(api, token);

let beaconUrl: string;
const beacons: string[] = [];
const beacon = useLoopbackServer((req, res) => {
  beacons.push(req.url ?? '');
  res.writeHead(204).end();
});
let org: TestOrg;
let site: { id: string; url: string; base: string };
let script: string;
const installed = uniqueName('widget');
const notInstalled = uniqueName('widget-idle');
const hanging = uniqueName('widget-hang');

async function publish(name: string, secrets: Record<string, string>, contentSecurityPolicy?: string) {
  await client(org.admin.token).integrations.publishIntegration(name, {
    title: 'Widget', description: 'A published-site script', organization: org.id, visibility: 'private', script,
    scopes: ['site:script:inject'], secrets, ...(contentSecurityPolicy ? { contentSecurityPolicy } : {}),
  } as never);
}
const install = (name: string) => client(org.admin.token).integrations.installIntegration(name, { organization: org.id } as never);
const scriptPath = (name: string, version = 1) => `/s/${site.id}/~integrations/${name}/script.js?v=${version}`;

beforeAll(async () => {
  beaconUrl = beacon.url;
  script = await buildFixture('widget');
  org = await newOrg();
  const space = await spaceWithPages(api, org, 'Guide', [GUIDE_MARKDOWN]);
  site = await publishedSite(api, org, [space.id]);
  // Its policy asks for the beacon's origin and more than a page may give ('unsafe-eval', frame-ancestors).
  await publish(installed, { BEACON: `${beaconUrl}/beacon` }, `connect-src ${beaconUrl}; script-src 'unsafe-eval' https://cdn.example.com; frame-ancestors *`);
  await publish(notInstalled, {});
  await publish(hanging, { HANG: '1' });
  await install(installed);
  await install(hanging);
}, 120_000);

describe('published-site scripts over HTTP', () => {
  it('pages load the installed integrations\' scripts, with their policies merged into the CSP', async () => {
    const res = await fetch(`${site.url}/getting-started`);
    const html = await res.text();
    expect(res.status).toBe(200);
    expect(html).toContain(`<script src="${scriptPath(installed).replace('&', '&#x26;')}" async></script>`);
    expect(html).toContain(`<script src="${scriptPath(hanging)}" async></script>`);
    expect(html).not.toContain(notInstalled);
    const csp = res.headers.get('content-security-policy')!;
    expect(csp).toMatch(new RegExp(`connect-src 'self' ${beaconUrl.replace(/[.]/g, '\\.')}(;|$)`));
    expect(csp).toMatch(/script-src [^;]*'self' https:\/\/cdn\.example\.com/);
    // What would loosen the page for everything is dropped.
    expect(csp).not.toContain("'unsafe-eval'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toContain('frame-ancestors *');
  });

  it('serves the script the integration answers, cached per site and integration version', async () => {
    const first = await fetch(`${api.url}${scriptPath(installed)}`);
    expect(first.status).toBe(200);
    expect(first.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    const body = await first.text();
    expect(body).toContain(`data-widget-`);
    expect(body).toContain(site.id);
    // The second request is the cached answer (the script stamps the time it ran).
    expect(await (await fetch(`${api.url}${scriptPath(installed)}`)).text()).toBe(body);
    // A script of an integration that is not installed is not served.
    expect((await fetch(`${api.url}${scriptPath(notInstalled)}`)).status).toBe(404);
  });

  it('a script that never answers costs the page nothing and gives a no-op script after a bounded wait', async () => {
    const started = Date.now();
    const res = await fetch(`${api.url}${scriptPath(hanging)}`);
    const elapsed = Date.now() - started;
    expect(res.status).toBe(200);
    expect(await res.text()).toBe(`/* ${hanging}: no script */\n`);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(elapsed).toBeGreaterThanOrEqual(SCRIPT_WAIT_MS - 500);
    expect(elapsed).toBeLessThan(SCRIPT_WAIT_MS + 5_000);
    // Remembered as failed for a while: the next request does not wait again.
    const again = Date.now();
    await (await fetch(`${api.url}${scriptPath(hanging)}`)).text();
    expect(Date.now() - again).toBeLessThan(1_000);
  }, 30_000);

  it('the published site profile lists the scripts', async () => {
    const res = await api.request('GET', `${site.base}/published`, { token: org.admin.token });
    expect(res.status).toBe(200);
    expect(res.body.scripts).toEqual([
      { script: `${api.url}${scriptPath(installed)}`, contentSecurityPolicy: `connect-src ${beaconUrl}; script-src 'unsafe-eval' https://cdn.example.com; frame-ancestors *`, cookies: false },
      { script: `${api.url}${scriptPath(hanging)}`, cookies: false },
    ].sort((a, b) => a.script.localeCompare(b.script)));
  });

  it('publishing the integration again changes the script\'s URL and the page', async () => {
    const before = await fetch(`${site.url}/getting-started`);
    await publish(installed, { BEACON: `${beaconUrl}/beacon` }, `connect-src ${beaconUrl}`);
    const after = await fetch(`${site.url}/getting-started`, { headers: { 'if-none-match': before.headers.get('etag')! } });
    expect(after.status).toBe(200);
    expect(await after.text()).toContain(scriptPath(installed, 2).replace('&', '&#x26;'));
  });
});

describe.runIf(RUN_BROWSER_TESTS)('published-site scripts in Chromium', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterAll(async () => browser?.close());

  it('the installed integration\'s script runs and reaches what its policy allows; the others do not run', async () => {
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on('console', (message) => { if (message.type() === 'error') errors.push(message.text()); });
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(`${site.url}/getting-started`);
    await page.waitForFunction((name) => document.documentElement.getAttribute(`data-beacon-${name}`) !== null, installed, { timeout: 15_000 });
    const attributes = await page.evaluate(() => Object.fromEntries(Array.from(document.documentElement.attributes, (a) => [a.name, a.value])));
    expect(attributes[`data-widget-${installed}`]).toBe(site.id);
    expect(attributes[`data-beacon-${installed}`]).toBe('sent');
    expect(beacons).toContain(`/beacon?site=${site.id}`);
    expect(attributes[`data-widget-${notInstalled}`]).toBeUndefined();
    expect(attributes[`data-widget-${hanging}`]).toBeUndefined();
    expect(errors).toEqual([]);
    await page.close();
  }, 30_000);
});
