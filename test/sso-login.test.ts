import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { newOrg, newUser, useTestApi, type TestOrg } from './support/api.ts';
import { createTestIdP, type ResponseOptions, type TestIdP } from './support/saml-idp.ts';
import { getRecord } from '../shared/db/operations.ts';
import { memberEntity } from '../shared/db/entities/member.ts';
import { tokenEntity } from '../shared/db/entities/token.ts';
import { teamMemberEntity } from '../shared/db/entities/team.ts';
import { userEntity } from '../shared/db/entities/user.ts';
import { ssoUserId } from '../shared/commands/sso/login.ts';
import { sha256Hex, randomId } from '../shared/ids.ts';
import { advanceClock, resetClock } from '../shared/clock.ts';
import { storedLike } from './support/stored.ts';

const api = useTestApi();
let idp: TestIdP;
beforeAll(async () => {
  idp = await createTestIdP('okta');
});
afterEach(() => resetClock());

interface Provider {
  id: string;
  service: { acsURL: string; startURL: string; entityID: string };
}

async function createProvider(org: TestOrg, fields: Record<string, unknown> = {}, provider: TestIdP = idp): Promise<Provider> {
  const res = await api.request('POST', `/orgs/${org.id}/saml`, {
    token: org.admin.token,
    body: { label: 'Okta', entityID: provider.entityID, certificate: provider.certificate, ssoURL: provider.ssoURL, ...fields },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

/** GET startURL without following: the redirect to the IdP. */
async function start(provider: Provider, relayState?: string) {
  const url = new URL(provider.service.startURL);
  if (relayState !== undefined) url.searchParams.set('RelayState', relayState);
  return fetch(url, { redirect: 'manual' });
}

/** startURL -> the AuthnRequest's id, as the IdP reads it. */
async function pendingRequestId(provider: Provider, by: TestIdP = idp): Promise<string> {
  const res = await start(provider);
  expect(res.status).toBe(302);
  return by.readAuthnRequest(res.headers.get('location')!).id;
}

/** startURL in a browser: the AuthnRequest's id and the cookie that binds it to this browser. */
async function startInBrowser(provider: Provider): Promise<{ id: string; cookie: string }> {
  const res = await start(provider);
  expect(res.status).toBe(302);
  const cookie = res.headers.getSetCookie().map((c) => c.split(';')[0]!).find((c) => c.startsWith('saml_request_'));
  expect(cookie).toBeDefined();
  return { id: idp.readAuthnRequest(res.headers.get('location')!).id, cookie: cookie! };
}

function responseFor(provider: Provider, inResponseTo: string | null, email: string, options: Partial<ResponseOptions> = {}, by: TestIdP = idp) {
  return by.response({ acsURL: provider.service.acsURL, audience: provider.service.entityID, inResponseTo, email, ...options });
}

async function postToAcs(provider: Provider, fields: Record<string, string>, headers: Record<string, string> = { accept: 'application/json' }) {
  const res = await fetch(provider.service.acsURL, { method: 'POST', body: new URLSearchParams(fields), headers, redirect: 'manual' });
  const text = await res.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // HTML or empty
  }
  // Tests read bodies freely.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  return { status: res.status, headers: res.headers, body: body as any };
}

/** A full SP-initiated login of `email`; returns the JSON answer. */
async function login(provider: Provider, email: string, options: Partial<ResponseOptions> = {}) {
  const requestId = await pendingRequestId(provider);
  return postToAcs(provider, { SAMLResponse: responseFor(provider, requestId, email, options) });
}

const freshEmail = (tag = 'sso') => `${tag}.${randomId(8).toLowerCase()}@acme.example`;
const usersByEmail = async (email: string) => userEntity.query.byEmail({ email }).all();
const memberCount = async (org: TestOrg) => (await storedLike(memberEntity.key({ orgId: org.id, userId: '' }))).length;
const tokensOf = async (userId: string) => tokenEntity.query.byUser({ userId }).all();

describe('SAML service provider: metadata and SP-initiated login', () => {
  it('serves the SP metadata at entityID', async () => {
    const org = await newOrg();
    const provider = await createProvider(org);
    const res = await fetch(provider.service.entityID);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('application/samlmetadata+xml');
    const xml = await res.text();
    expect(xml).toContain(`entityID="${provider.service.entityID}"`);
    expect(xml).toContain(`Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST" Location="${provider.service.acsURL}"`);
    expect(xml).toContain('<NameIDFormat>urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress</NameIDFormat>');
  });

  it('answers 404 for an unknown provider', async () => {
    const res = await fetch(`${api.url}/sso/saml/nope${randomId(6)}/start`, { redirect: 'manual' });
    expect(res.status).toBe(404);
    expect((await res.json()).error.message).toMatch(/No SAML provider found/);
  });

  it('logs a new person in: AuthnRequest, signed response, token, JIT membership with role and team', async () => {
    const org = await newOrg();
    const team = (await api.request('PUT', `/orgs/${org.id}/teams`, { token: org.admin.token, body: { title: 'Writers' } })).body;
    const provider = await createProvider(org, { defaultRole: 'edit', defaultTeam: team.id });

    const relay = `${api.url}/v1/user`;
    const redirect = await start(provider, relay);
    expect(redirect.status).toBe(302);
    const location = redirect.headers.get('location')!;
    expect(location.startsWith(`${idp.ssoURL}?`)).toBe(true);
    const request = idp.readAuthnRequest(location);
    expect(request).toMatchObject({ issuer: provider.service.entityID, destination: idp.ssoURL, acsURL: provider.service.acsURL, relayState: relay });
    expect(request.id).toMatch(/^_/);

    const email = freshEmail('ada');
    const res = await postToAcs(provider, {
      SAMLResponse: responseFor(provider, request.id, email, { attributes: { firstName: 'Ada', lastName: 'Lovelace' } }),
      RelayState: relay,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.body).toMatchObject({
      token: expect.stringMatching(/^dps_/), organization: org.id,
      user: { object: 'user', id: expect.any(String), displayName: 'Ada Lovelace', email },
    });
    const { token, user } = res.body;

    const me = await api.request('GET', '/user', { token });
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ id: user.id, email });

    const member = memberEntity.fromRecord((await getRecord(memberEntity.key({ orgId: org.id, userId: user.id })))!);
    expect(member).toMatchObject({ role: 'edit', sso: true, teams: 1, lastSeenAt: expect.any(String) });
    expect(await getRecord(teamMemberEntity.key({ orgId: org.id, teamId: team.id, userId: user.id }))).toBeDefined();
    const listed = await api.request('GET', `/orgs/${org.id}/teams/${team.id}`, { token: org.admin.token });
    expect(listed.body.members).toBe(1);

    // Stored hashed, with the SSO expiry (default 8 hours).
    const stored = await getRecord(tokenEntity.key({ hash: sha256Hex(token) }));
    expect(stored).toMatchObject({ userId: user.id });
    expect(JSON.stringify(stored)).not.toContain(token);
    expect((stored!.expiresAt as number) - Date.now() / 1000).toBeGreaterThan(8 * 3600 - 60);
    expect((stored!.expiresAt as number) - Date.now() / 1000).toBeLessThanOrEqual(8 * 3600);

    // After SSO_TOKEN_TTL the token no longer authenticates.
    advanceClock(8 * 3600 * 1000 + 1000);
    const expired = await api.request('GET', '/user', { token });
    expect(expired.status).toBe(401);
    expect(expired.body.error.message).toMatch(/expired/);
  });

  it('redirects a browser to a RelayState of this service with the token in the fragment, else shows it once', async () => {
    const org = await newOrg();
    const provider = await createProvider(org);
    const relay = `${api.url}/v1/user`;
    const browser1 = await startInBrowser(provider);
    const redirected = await postToAcs(provider, { SAMLResponse: responseFor(provider, browser1.id, freshEmail()), RelayState: relay }, { accept: 'text/html', cookie: browser1.cookie });
    expect(redirected.status).toBe(303);
    const target = new URL(redirected.headers.get('location')!);
    expect(`${target.origin}${target.pathname}`).toBe(relay);
    const token = new URLSearchParams(target.hash.slice(1)).get('token')!;
    expect((await api.request('GET', '/user', { token })).status).toBe(200);

    // A RelayState elsewhere is not followed: the page shows the token.
    const browser2 = await startInBrowser(provider);
    const page = await postToAcs(provider, { SAMLResponse: responseFor(provider, browser2.id, freshEmail()), RelayState: 'https://evil.example/steal' }, { accept: 'text/html', cookie: browser2.cookie });
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    expect(page.headers.get('cache-control')).toBe('no-store');
    const shown = /<code id="token">(dps_[A-Za-z0-9]+)<\/code>/.exec(page.body)?.[1];
    expect(shown).toBeDefined();
    expect((await api.request('GET', '/user', { token: shown })).status).toBe(200);
  });

  it('gives a browser answer only to the browser that opened startURL (login CSRF), and spends its cookie', async () => {
    const org = await newOrg();
    const provider = await createProvider(org);
    const started = await start(provider);
    const setCookie = started.headers.getSetCookie().find((c) => c.startsWith('saml_request_'))!;
    expect(setCookie).toMatch(new RegExp(`^saml_request_${idp.readAuthnRequest(started.headers.get('location')!).id}=1;`));
    for (const attribute of [`Path=/sso/saml/${provider.id}`, 'Max-Age=300', 'HttpOnly', 'Secure', 'SameSite=None']) expect(setCookie).toContain(attribute);

    // The attacker starts a login in their own browser and has the IdP sign a response for
    // their account, then makes the victim's browser post it (with RelayState into the app).
    const victim = await startInBrowser(provider);
    const attackerEmail = freshEmail('attacker');
    const members = await memberCount(org);
    for (const cookie of [undefined, victim.cookie]) {
      const attacker = await startInBrowser(provider);
      const forged = await postToAcs(provider, {
        SAMLResponse: responseFor(provider, attacker.id, attackerEmail, { assertionId: `_a${randomId(20)}` }), RelayState: `${api.url}/v1/user`,
      }, { accept: 'text/html', ...(cookie ? { cookie } : {}) });
      expect(forged.status, JSON.stringify(forged.body)).toBe(401);
      expect(forged.headers.get('location')).toBeNull();
      expect(forged.body).toContain('<p id="reason">SAMLResponse: this sign-in was not started in this browser: open the provider\'s startURL again</p>');
    }
    expect(await usersByEmail(attackerEmail)).toEqual([]);
    expect(await tokensOf(await ssoUserId(attackerEmail))).toEqual([]);
    expect(await memberCount(org)).toBe(members);

    // The victim's own login completes, and the cookie is cleared.
    const own = await postToAcs(provider, { SAMLResponse: responseFor(provider, victim.id, freshEmail('victim')) }, { accept: 'text/html', cookie: victim.cookie });
    expect(own.status).toBe(200);
    expect(own.headers.getSetCookie().find((c) => c.startsWith(`${victim.cookie.split('=')[0]}=;`))).toMatch(/Max-Age=0/);
  });

  it('accepts a signed response as well as a signed assertion (Keycloak signs the document by default)', async () => {
    const org = await newOrg();
    const provider = await createProvider(org);
    for (const sign of ['response', 'both'] as const) {
      const res = await login(provider, freshEmail(sign), { sign });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    }
    // The email may come as an attribute when the NameID is an opaque id (Keycloak's persistent NameID).
    const email = freshEmail('attr');
    const byAttribute = await login(provider, email, { nameID: 'f81d4fae-7dec-11d0', attributes: { email } });
    expect(byAttribute.status, JSON.stringify(byAttribute.body)).toBe(200);
    expect(byAttribute.body.user.email).toBe(email);
  });

  it('refuses a RelayState that is not a URL of this service at startURL', async () => {
    const org = await newOrg();
    const provider = await createProvider(org);
    const res = await start(provider, 'https://evil.example/');
    expect(res.status).toBe(400);
    expect((await res.json()).error.message).toBe('RelayState: must be a URL of this service');
  });

  it('refuses a RelayState on the API\'s origin whose page others write: integrations\' public endpoints, published sites', async () => {
    const org = await newOrg();
    const provider = await createProvider(org);
    // An integration anyone may publish answers there with its own HTML, which could read the token in the fragment.
    for (const relay of [
      `${api.url}/v1/integrations/evil/public/callback`, `${api.url}/v1/integrations/evil/public`,
      `${api.url}/v1/integrations/evil/%70ublic/x`, `${api.url}//v1/integrations/evil/public/x`, `${api.url}/s/site123/`,
      // Another provider's startURL redirects to its ssoURL, which the browser would open with the token's fragment.
      `${api.url}/sso/saml/${provider.id}/start`, `${api.url}/SSO/saml/x/start`, `${api.url}//sso/saml/x/start`, `${api.url}/%73so/saml/x/start`,
    ]) {
      const res = await start(provider, relay);
      expect(res.status, relay).toBe(400);
      expect((await res.json()).error.message).toBe('RelayState: must be a URL of this service');
    }
    // At the ACS too: not followed, the page shows the token instead.
    const browser = await startInBrowser(provider);
    const page = await postToAcs(provider, { SAMLResponse: responseFor(provider, browser.id, freshEmail()), RelayState: `${api.url}/v1/integrations/evil/public/cb` }, { accept: 'text/html', cookie: browser.cookie });
    expect(page.status).toBe(200);
    expect(page.headers.get('location')).toBeNull();
    const other = await createProvider(await newOrg(), { ssoURL: 'https://evil.example/sso' });
    const viaStart = await startInBrowser(provider);
    const notFollowed = await postToAcs(provider, { SAMLResponse: responseFor(provider, viaStart.id, freshEmail()), RelayState: other.service.startURL }, { accept: 'text/html', cookie: viaStart.cookie });
    expect(notFollowed.status).toBe(200);
    expect(notFollowed.headers.get('location')).toBeNull();
    // The API's own pages are still a place to return to.
    expect((await start(provider, `${api.url}/v1/user`)).status).toBe(302);
  });

  it('keeps an existing member\'s higher role and raises a lower one; marks sso and last seen', async () => {
    const org = await newOrg();
    const provider = await createProvider(org, { defaultRole: 'edit' });
    const reader = await org.member('read');
    const res1 = await login(provider, reader.user.email);
    expect(res1.status, JSON.stringify(res1.body)).toBe(200);
    expect(res1.body.user.id).toBe(reader.user.id);
    expect(memberEntity.fromRecord((await getRecord(memberEntity.key({ orgId: org.id, userId: reader.user.id })))!)).toMatchObject({ role: 'edit', sso: true });

    const res2 = await login(provider, org.admin.user.email.toUpperCase());
    expect(res2.status, JSON.stringify(res2.body)).toBe(200);
    expect(res2.body.user.id).toBe(org.admin.user.id);
    const admin = memberEntity.fromRecord((await getRecord(memberEntity.key({ orgId: org.id, userId: org.admin.user.id })))!);
    expect(admin).toMatchObject({ role: 'admin', sso: true, lastSeenAt: expect.any(String) });
  });

  it('refuses an existing account that is not a member of the organization, changing nothing', async () => {
    const org = await newOrg();
    const provider = await createProvider(org, { defaultRole: 'admin' });
    const outsider = await newUser('Outsider');
    const before = await memberCount(org);
    const res = await login(provider, outsider.user.email);
    expect(res.status).toBe(403);
    expect(res.body.error.message).toMatch(/already exists and is not a member/);
    expect(await memberCount(org)).toBe(before);
    expect(await tokensOf(outsider.user.id)).toHaveLength(1);
  });

  it('signs in an existing account of a claimed email domain only once the person joined by that domain themselves', async () => {
    const org = await newOrg();
    const domain = `claimed-${randomId(6).toLowerCase()}.example.com`;
    const patched = await api.request('PATCH', `/orgs/${org.id}`, { token: org.admin.token, body: { emailDomains: [domain] } });
    expect(patched.status, JSON.stringify(patched.body)).toBe(200);
    const provider = await createProvider(org, { defaultRole: 'edit' });
    const existing = await newUser('Existing', `existing.${randomId(6).toLowerCase()}@${domain}`);
    const before = await memberCount(org);
    // Domain claims are not proof of ownership (test/sso-accounts.test.ts): no membership, no token.
    const refusedLogin = await login(provider, existing.user.email);
    expect(refusedLogin.status, JSON.stringify(refusedLogin.body)).toBe(403);
    expect(await memberCount(org)).toBe(before);
    expect(await tokensOf(existing.user.id)).toHaveLength(1);

    expect((await api.request('POST', `/orgs/${org.id}/join`, { token: existing.token })).status).toBe(204);
    const res = await login(provider, existing.user.email);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.user.id).toBe(existing.user.id);
    expect(await memberCount(org)).toBe(before + 1);
    expect(memberEntity.fromRecord((await getRecord(memberEntity.key({ orgId: org.id, userId: existing.user.id })))!)).toMatchObject({ role: 'edit', sso: true });
    expect(await tokensOf(existing.user.id)).toHaveLength(2);
  });

  it('works with several providers per organization, each listed with its working startURL', async () => {
    const org = await newOrg();
    const other = await createTestIdP('keycloak');
    const a = await createProvider(org, { label: 'Okta' });
    const b = await createProvider(org, { label: 'Keycloak' }, other);
    const options = await api.request('GET', `/orgs/${org.id}/sso`, { token: org.admin.token });
    expect(options.body.items.map((o: { startURL: string }) => o.startURL).sort()).toEqual([a.service.startURL, b.service.startURL].sort());

    const viaB = await start(b);
    expect(viaB.headers.get('location')!.startsWith(other.ssoURL)).toBe(true);
    const requestB = other.readAuthnRequest(viaB.headers.get('location')!).id;
    const resB = await postToAcs(b, { SAMLResponse: responseFor(b, requestB, freshEmail('kc'), {}, other) });
    expect(resB.status, JSON.stringify(resB.body)).toBe(200);
    const resA = await login(a, freshEmail('okta'));
    expect(resA.status, JSON.stringify(resA.body)).toBe(200);

    // A request of provider B answered at provider A's acsURL is not one of A's.
    const requestB2 = await pendingRequestId(b, other);
    const crossed = await postToAcs(a, { SAMLResponse: responseFor(a, requestB2, freshEmail()) });
    expect(crossed.status).toBe(401);
    expect(crossed.body.error.message).toBe('SAMLResponse: InResponseTo is not valid');
  });
});

describe('SAML service provider: refusals change nothing', () => {
  let org: TestOrg;
  let provider: Provider;
  beforeAll(async () => {
    org = await newOrg();
    provider = await createProvider(org, { defaultRole: 'admin' });
  });

  /** Posts a response built for a fresh pending request; asserts the refusal and that no user, member or token appeared. */
  async function expectRefused(build: (requestId: string, email: string) => string, status: number, message: RegExp | string) {
    const email = freshEmail('refused');
    const members = await memberCount(org);
    const res = await postToAcs(provider, { SAMLResponse: build(await pendingRequestId(provider), email) });
    expect(res.status, JSON.stringify(res.body)).toBe(status);
    if (typeof message === 'string') expect(res.body.error.message).toBe(message);
    else expect(res.body.error.message).toMatch(message);
    expect(res.body.error.code).toBe(status);
    expect(await usersByEmail(email)).toEqual([]);
    const userId = await ssoUserId(email);
    expect(await getRecord(userEntity.key({ userId }))).toBeUndefined();
    expect(await tokensOf(userId)).toEqual([]);
    expect(await memberCount(org)).toBe(members);
  }

  it('refuses an unsigned response', async () => {
    await expectRefused((id, email) => responseFor(provider, id, email, { sign: 'none' }), 401, 'SAMLResponse: Invalid signature');
  });

  it('refuses a response tampered with after signing', async () => {
    await expectRefused((id, email) => responseFor(provider, id, email, {
      tamper: (xml) => xml.replace(`>${email}<`, `>${org.admin.user.email}<`),
    }), 401, 'SAMLResponse: Invalid signature');
    expect(memberEntity.fromRecord((await getRecord(memberEntity.key({ orgId: org.id, userId: org.admin.user.id })))!).sso).toBe(false);
  });

  it('refuses signature wrapping (an unsigned assertion in front of the signed one)', async () => {
    await expectRefused((id, email) => responseFor(provider, id, freshEmail('victim'), { wrapEmail: email }), 401, /^SAMLResponse: Invalid signature/);
    await expectRefused((id, email) => responseFor(provider, id, freshEmail('victim'), { wrapEmail: email, wrapAssertionId: `_evil${randomId(10)}` }), 401, /^SAMLResponse: Invalid signature/);
  });

  it('refuses a response signed by another key than the provider certificate', async () => {
    const stranger = await createTestIdP('stranger');
    await expectRefused((id, email) => responseFor(provider, id, email, { issuer: idp.entityID }, stranger), 401, 'SAMLResponse: Invalid signature');
  });

  it('refuses an assertion from another issuer than the provider entityID', async () => {
    await expectRefused((id, email) => responseFor(provider, id, email, { issuer: 'https://other-idp.example/' }), 401, /Issuer is not the provider's entityID/);
  });

  it('refuses an expired assertion beyond the 3 minutes of clock skew, and one not yet valid', async () => {
    await expectRefused((id, email) => responseFor(provider, id, email, { notBefore: -600_000, notOnOrAfter: -200_000 }), 401, /SAMLResponse: SAML assertion expired/);
    await expectRefused((id, email) => responseFor(provider, id, email, { notBefore: 200_000 }), 401, 'SAMLResponse: SAML assertion not yet valid');
  });

  it('accepts an assertion expired less than 3 minutes ago (clock skew)', async () => {
    const res = await login(provider, freshEmail('skew'), { notBefore: -600_000, notOnOrAfter: -60_000 });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  });

  it('refuses a replayed response', async () => {
    const email = freshEmail('replay');
    const response = responseFor(provider, await pendingRequestId(provider), email);
    const first = await postToAcs(provider, { SAMLResponse: response });
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    const members = await memberCount(org);
    const second = await postToAcs(provider, { SAMLResponse: response });
    expect(second.status).toBe(401);
    expect(second.body.error.message).toBe('SAMLResponse: this assertion was already used to sign in');
    expect(await tokensOf(first.body.user.id)).toHaveLength(1);
    expect(await memberCount(org)).toBe(members);
  });

  it('refuses an assertion id already used, even in answer to a new request', async () => {
    const assertionId = `_a${randomId(20)}`;
    const first = await login(provider, freshEmail('reuse'), { assertionId });
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    await expectRefused((id, email) => responseFor(provider, id, email, { assertionId }), 401, 'SAMLResponse: this assertion was already used to sign in');
  });

  it('refuses a wrong audience', async () => {
    await expectRefused((id, email) => responseFor(provider, id, email, { audience: 'https://another-sp.example/' }), 401, /SAMLResponse: SAML assertion audience mismatch/);
  });

  it('refuses a wrong Destination and a wrong Recipient', async () => {
    await expectRefused((id, email) => responseFor(provider, id, email, { destination: 'https://another-sp.example/acs' }), 401, `SAMLResponse: the response's Destination must be ${provider.service.acsURL}`);
    await expectRefused((id, email) => responseFor(provider, id, email, { recipient: 'https://another-sp.example/acs' }), 401, `SAMLResponse: the assertion's SubjectConfirmationData Recipient must be ${provider.service.acsURL}`);
  });

  it('refuses an unknown InResponseTo and an unsolicited response', async () => {
    await expectRefused((_id, email) => responseFor(provider, `_${randomId(20)}`, email), 401, 'SAMLResponse: InResponseTo is not valid');
    await expectRefused((_id, email) => responseFor(provider, null, email), 401,
      'SAMLResponse: InResponseTo is missing: sign-ins started at the identity provider are not accepted, start at the provider\'s startURL');
  });

  it('refuses an answer to a request older than its few minutes', async () => {
    await expectRefused((id, email) => {
      advanceClock(6 * 60 * 1000);
      return responseFor(provider, id, email);
    }, 401, 'SAMLResponse: InResponseTo is not valid');
  });

  it('refuses XXE and any DTD', async () => {
    const xxe = '<?xml version="1.0"?><!DOCTYPE r [<!ENTITY x SYSTEM "file:///etc/passwd">]>';
    await expectRefused((id, email) => responseFor(provider, id, email, { prolog: xxe }), 400, 'SAMLResponse: must not contain a document type declaration (DTD)');
    const bomb = '<!DOCTYPE r [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">]>';
    await expectRefused((id, email) => responseFor(provider, id, email, { prolog: bomb }), 400, 'SAMLResponse: must not contain a document type declaration (DTD)');
  });

  it('names the identity provider\'s own refusal (an error Status and no assertion), signed or not', async () => {
    const notAssigned = { code: 'Responder', subCode: 'RequestDenied', message: 'User is not assigned to this application' };
    await expectRefused((id, email) => responseFor(provider, id, email, { status: notAssigned, sign: 'none' }), 401,
      'SAMLResponse: the identity provider refused the sign-in: Responder error: User is not assigned to this application');
    await expectRefused((id, email) => responseFor(provider, id, email, { status: { code: 'Responder', subCode: 'AuthnFailed' }, sign: 'response' }), 401,
      'SAMLResponse: the identity provider refused the sign-in: Responder error: AuthnFailed');
  });

  it('shows a browser its refusal as a page with the same status and reason (the IdP\'s words escaped); API clients keep JSON', async () => {
    const browserAccept = 'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8';
    const hostile = { code: 'Responder', message: '&lt;img src=x onerror=alert(1)&gt; not assigned' };
    const refusedPage = await postToAcs(provider, { SAMLResponse: responseFor(provider, await pendingRequestId(provider), freshEmail(), { status: hostile, sign: 'none' }) }, { accept: browserAccept });
    expect(refusedPage.status).toBe(401);
    expect(refusedPage.headers.get('content-type')).toContain('text/html');
    expect(refusedPage.headers.get('content-security-policy')).toBe("default-src 'none'; frame-ancestors 'none'");
    expect(refusedPage.headers.get('cache-control')).toBe('no-store');
    expect(refusedPage.body).toContain('<title>Sign-in failed</title>');
    expect(refusedPage.body).toContain('<p id="reason">SAMLResponse: the identity provider refused the sign-in: Responder error: &#x3C;img src=x onerror=alert(1)> not assigned</p>');
    expect(refusedPage.body).not.toContain('<img');

    const unknown = await fetch(`${api.url}/sso/saml/nope${randomId(6)}/start`, { headers: { accept: browserAccept }, redirect: 'manual' });
    expect(unknown.status).toBe(404);
    expect(await unknown.text()).toMatch(/<p id="reason">No SAML provider found with id nope/);
    const badRelay = await fetch(`${provider.service.startURL}?RelayState=${encodeURIComponent('https://evil.example/')}`, { headers: { accept: browserAccept }, redirect: 'manual' });
    expect(badRelay.status).toBe(400);
    expect(await badRelay.text()).toContain('<p id="reason">RelayState: must be a URL of this service</p>');
    // No Accept, or */*: JSON as before.
    for (const accept of [undefined, '*/*']) {
      const json = await fetch(`${api.url}/sso/saml/nope${randomId(6)}/start`, { headers: accept ? { accept } : {}, redirect: 'manual' });
      expect(json.headers.get('content-type')).toContain('application/json');
      expect((await json.json()).error.code).toBe(404);
    }
  });

  it('answers a huge body 413 and a deeply nested document 4xx, without parsing the first', async () => {
    const huge = await postToAcs(provider, { SAMLResponse: 'A'.repeat(300 * 1024) });
    expect(huge.status).toBe(413);
    expect(huge.body).toEqual({ error: { code: 413, message: 'body: is too large for a SAML response' } });
    const nested = `<samlp:Response xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" Destination="${provider.service.acsURL}">${'<a>'.repeat(20000)}${'</a>'.repeat(20000)}</samlp:Response>`;
    const deep = await postToAcs(provider, { SAMLResponse: Buffer.from(nested).toString('base64') });
    expect(deep.status).toBe(401);
    expect(deep.body.error.message).toMatch(/^SAMLResponse: InResponseTo is missing/);
  });

  it('refuses an assertion without an email address', async () => {
    await expectRefused((id, email) => responseFor(provider, id, email, { nameID: 'not-an-email' }), 401, 'SAMLResponse: the assertion carries no email address (NameID or an email attribute)');
  });

  it('answers malformed form fields with 400 naming the field', async () => {
    const cases: [Record<string, string>, string][] = [
      [{}, 'SAMLResponse: is required'],
      [{ SAMLResponse: '<xml>' }, 'SAMLResponse: must be base64'],
      [{ SAMLResponse: Buffer.from('not xml at all').toString('base64') }, /SAMLResponse: is not/.source],
      [{ SAMLResponse: Buffer.from('<a/>').toString('base64') }, 'SAMLResponse: is not a SAML 2.0 Response'],
      [{ SAMLResponse: 'QQ==', RelayState: 'x'.repeat(2049) }, 'RelayState: must be at most 2048 characters'],
    ];
    for (const [fields, message] of cases) {
      const res = await postToAcs(provider, fields);
      expect(res.status, JSON.stringify(fields).slice(0, 80)).toBe(400);
      expect(res.body.error.message).toMatch(new RegExp(`^${message.replace(/[()]/g, '\\$&')}`));
    }
  });
});

describe('SSO enforcement', () => {
  it('refuses joining by email domain when the organization enforces SSO, and allows it otherwise', async () => {
    const org = await newOrg();
    const domain = `${randomId(8).toLowerCase()}.example`;
    const patched = await api.request('PATCH', `/orgs/${org.id}`, { token: org.admin.token, body: { emailDomains: [domain], sso: true } });
    expect(patched.status, JSON.stringify(patched.body)).toBe(200);
    const joiner = await newUser('Joiner', `joiner.${randomId(6).toLowerCase()}@${domain}`);
    const refusedJoin = await api.request('POST', `/orgs/${org.id}/join`, { token: joiner.token });
    expect(refusedJoin.status).toBe(403);
    expect(refusedJoin.body.error.message).toMatch(/^sso: organization .* requires single sign-on/);
    expect(await getRecord(memberEntity.key({ orgId: org.id, userId: joiner.user.id }))).toBeUndefined();

    // The same person comes in through SSO.
    const provider = await createProvider(org, { defaultRole: 'comment' });
    const res = await login(provider, freshEmail('newcomer'));
    expect(res.status, JSON.stringify(res.body)).toBe(200);

    await api.request('PATCH', `/orgs/${org.id}`, { token: org.admin.token, body: { sso: false } });
    const joined = await api.request('POST', `/orgs/${org.id}/join`, { token: joiner.token });
    expect(joined.status).toBe(204);
  });
});
