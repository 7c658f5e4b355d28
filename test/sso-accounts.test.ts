import { beforeAll, describe, expect, it } from 'vitest';
import { addMember } from '../shared/commands/members/add.ts';
import { newOrg, newUser, useTestApi, type TestOrg } from './support/api.ts';
import { createTestIdP, type TestIdP } from './support/saml-idp.ts';
import { getRecord } from '../shared/db/operations.ts';
import { memberEntity } from '../shared/db/entities/member.ts';
import { tokenEntity } from '../shared/db/entities/token.ts';
import { userEntity } from '../shared/db/entities/user.ts';
import { randomId } from '../shared/ids.ts';
import { run } from '../shared/db/writes.ts';
import { sha256Hex } from '../shared/ids.ts';
import { createAccessToken } from '../shared/commands/tokens/create.ts';
import { nowEpochSeconds } from '../shared/clock.ts';
import { createSpace } from './support/factories.ts';
import { publishedSite } from './support/reader-site.ts';

/**
 * Which accounts an organization's identity provider may sign in. Any admin can create an
 * organization, claim any email domain (claims are not verified) and configure an IdP that
 * asserts any email: a SAML login must never hand out a token for someone else's account
 * nor mint accounts that pass for verified elsewhere.
 */
const api = useTestApi();
let attackerIdP: TestIdP;
beforeAll(async () => {
  attackerIdP = await createTestIdP('attacker');
});

interface Provider { id: string; service: { acsURL: string; startURL: string; entityID: string } }

async function attackerOrgClaiming(domain: string): Promise<{ org: TestOrg; provider: Provider }> {
  const org = await newOrg('Attacker');
  const patched = await api.request('PATCH', `/orgs/${org.id}`, { token: org.admin.token, body: { emailDomains: [domain] } });
  expect(patched.status, JSON.stringify(patched.body)).toBe(200);
  const res = await api.request('POST', `/orgs/${org.id}/saml`, {
    token: org.admin.token,
    body: { label: 'Mine', entityID: attackerIdP.entityID, certificate: attackerIdP.certificate, ssoURL: attackerIdP.ssoURL, defaultRole: 'admin' },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return { org, provider: res.body };
}

async function ssoLogin(provider: Provider, email: string, attributes?: Record<string, string>) {
  const started = await fetch(provider.service.startURL, { redirect: 'manual' });
  const request = attackerIdP.readAuthnRequest(started.headers.get('location')!);
  const SAMLResponse = attackerIdP.response({ acsURL: provider.service.acsURL, audience: provider.service.entityID, inResponseTo: request.id, email, attributes });
  const res = await fetch(provider.service.acsURL, { method: 'POST', body: new URLSearchParams({ SAMLResponse }), headers: { accept: 'application/json' } });
  return { status: res.status, body: await res.json() };
}

describe('SAML login and accounts of other organizations', () => {
  it('never signs in an existing account that is not a member, even in a domain the organization claims', async () => {
    const domain = `victim-${randomId(6).toLowerCase()}.example`;
    const victimOrg = await newOrg('Victim Corp');
    const victim = await newUser('CEO', `ceo.${randomId(6).toLowerCase()}@${domain}`);
    await addMember(victimOrg.id, victim.user, 'admin');
    const { org, provider } = await attackerOrgClaiming(domain);

    const res = await ssoLogin(provider, victim.user.email);
    expect(res.status, JSON.stringify(res.body)).toBe(403);
    expect(res.body.error.message).toBe('An account with this email already exists and is not a member of this organization: it signs in with SSO once the person has joined (by invitation or by email domain)');
    expect(await getRecord(memberEntity.key({ orgId: org.id, userId: victim.user.id }))).toBeUndefined();
    expect(await tokenEntity.query.byUser({ userId: victim.user.id }).all()).toHaveLength(1);
  });

  it('creates accounts whose email is not taken as verified: they cannot join other organizations by that domain', async () => {
    const domain = `target-${randomId(6).toLowerCase()}.example`;
    const targetOrg = await newOrg('Target');
    const patched = await api.request('PATCH', `/orgs/${targetOrg.id}`, { token: targetOrg.admin.token, body: { emailDomains: [domain] } });
    expect(patched.status).toBe(200);
    const { org, provider } = await attackerOrgClaiming(domain);

    const minted = await ssoLogin(provider, `newhire.${randomId(6).toLowerCase()}@${domain}`);
    expect(minted.status, JSON.stringify(minted.body)).toBe(200);
    expect(userEntity.fromRecord((await getRecord(userEntity.key({ userId: minted.body.user.id })))!).emailVerified).toBe(false);
    expect(await getRecord(memberEntity.key({ orgId: org.id, userId: minted.body.user.id }))).toBeDefined();

    // The SSO token opens its organization only; a token of the account's own (made by the
    // admin CLI, say) still cannot join by a domain whose ownership the email never proved.
    const bound = await api.request('POST', `/orgs/${targetOrg.id}/join`, { token: minted.body.token });
    expect(bound.status).toBe(403);
    const ownToken = await createAccessToken(minted.body.user.id, 'own');
    const join = await api.request('POST', `/orgs/${targetOrg.id}/join`, { token: ownToken });
    expect(join.status).toBe(400);
    expect(await getRecord(memberEntity.key({ orgId: targetOrg.id, userId: minted.body.user.id }))).toBeUndefined();
    for (const token of [minted.body.token, ownToken]) {
      const listed = await api.request('GET', `/email-domains/${domain}/orgs`, { token });
      expect(listed.status).toBe(200);
      expect(listed.body.organizations.map((o: { id: string }) => o.id)).toEqual([org.id]);
    }
  });

  it('refuses a disabled member and signs a removed one in no more, changing nothing', async () => {
    const domain = `own-${randomId(6).toLowerCase()}.example`;
    const { org, provider } = await attackerOrgClaiming(domain);
    const first = await ssoLogin(provider, `member.${randomId(6).toLowerCase()}@${domain}`);
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    const userId = first.body.user.id;
    const key = memberEntity.key({ orgId: org.id, userId });

    await run(memberEntity.update({ orgId: org.id, userId }, { set: { disabled: true } }));
    const disabled = await ssoLogin(provider, first.body.user.email);
    expect(disabled.status).toBe(403);
    expect(disabled.body).toEqual({ error: { code: 403, message: 'Your membership of this organization is disabled' } });
    expect(memberEntity.fromRecord((await getRecord(key))!)).toMatchObject({ disabled: true, role: 'admin' });
    expect(await tokenEntity.query.byUser({ userId }).all()).toHaveLength(1);

    // Removed by an admin: the earlier token no longer opens the organization, and the IdP cannot bring the account back.
    await run(memberEntity.update({ orgId: org.id, userId }, { set: { disabled: false } }));
    expect((await api.request('DELETE', `/orgs/${org.id}/members/${userId}`, { token: org.admin.token })).status).toBe(204);
    await new Promise((resolve) => setTimeout(resolve, Number(process.env.AUTH_CACHE_SECONDS ?? 5) * 1000 + 500));
    expect((await api.request('GET', `/orgs/${org.id}`, { token: first.body.token })).status).toBe(404);
    const removed = await ssoLogin(provider, first.body.user.email);
    expect(removed.status).toBe(403);
    expect(await getRecord(key)).toBeUndefined();
  });
});

describe('what an SSO token opens', () => {
  it('the organization whose identity provider signed the login, and none of the person\'s others', async () => {
    const domain = `both-${randomId(6).toLowerCase()}.example`;
    const home = await newOrg('Home Corp');
    const person = await newUser('Dual Member', `dual.${randomId(6).toLowerCase()}@${domain}`);
    await addMember(home.id, person.user, 'admin');
    expect((await api.request('PATCH', `/orgs/${home.id}`, { token: home.admin.token, body: { emailDomains: [domain] } })).status).toBe(200);
    const homeSpace = await createSpace(api, home, { title: 'Home secrets' });
    const homeSite = await publishedSite(api, home, [homeSpace.id], 'visitor-auth');
    // The person also joined an organization whose admin runs its own IdP.
    const { org: other, provider } = await attackerOrgClaiming(domain);
    await addMember(other.id, person.user, 'read');

    const login = await ssoLogin(provider, person.user.email);
    expect(login.status, JSON.stringify(login.body)).toBe(200);
    const token = login.body.token as string;
    expect((await getRecord(tokenEntity.key({ hash: sha256Hex(token) })))!).toMatchObject({ userId: person.user.id, orgId: other.id });

    expect((await api.request('GET', `/orgs/${other.id}`, { token })).status).toBe(200);
    // The other organization's IdP does not speak for the person at home: as to a non-member.
    expect((await api.request('GET', `/orgs/${home.id}`, { token })).status).toBe(404);
    expect((await api.request('GET', `/orgs/${home.id}/members`, { token })).status).toBe(404);
    expect((await api.request('GET', `/spaces/${homeSpace.id}`, { token })).status).toBe(404);
    expect((await api.request('PATCH', `/spaces/${homeSpace.id}`, { token, body: { title: 'Taken over' } })).status).toBe(404);
    expect((await api.request('GET', `/spaces/${homeSpace.id}`, { token: home.admin.token })).body.title).toBe('Home secrets');
    const listed = await api.request('GET', '/orgs', { token });
    expect(listed.status).toBe(200);
    expect(listed.body.items.map((o: { id: string }) => o.id)).toEqual([other.id]);
    const byDomain = await api.request('GET', `/email-domains/${domain}/orgs`, { token });
    expect(byDomain.body.organizations.map((o: { id: string }) => o.id)).toEqual([other.id]);
    const join = await api.request('POST', `/orgs/${home.id}/join`, { token });
    expect(join.status).toBe(403);
    expect(join.body.error.message).toBe(`This token comes from the SSO login of organization ${other.id} and opens that organization only`);
    const key = await fetch(`${homeSite.url}/~visitor-key`, { headers: { authorization: `Bearer ${token}` } });
    expect(key.status).toBe(404);
    expect(await key.json()).toEqual({ error: { code: 404, message: `No site found with id ${homeSite.id}` } });

    // The person's own token still opens both.
    expect((await api.request('GET', `/orgs/${home.id}`, { token: person.token })).status).toBe(200);
    expect((await api.request('GET', '/orgs', { token: person.token })).body.items.map((o: { id: string }) => o.id).sort()).toEqual([home.id, other.id].sort());
    expect((await api.request('GET', `/email-domains/${domain}/orgs`, { token: person.token })).body.organizations).toHaveLength(2);
    expect((await fetch(`${homeSite.url}/~visitor-key`, { headers: { authorization: `Bearer ${person.token}` } })).status).toBe(200);
  });

  it('an expired SSO token no longer reads a site\'s visitor key (the reader authenticates as the API does)', async () => {
    const domain = `key-${randomId(6).toLowerCase()}.example`;
    const { org, provider } = await attackerOrgClaiming(domain);
    const space = await createSpace(api, org, { title: 'Docs' });
    const site = await publishedSite(api, org, [space.id], 'visitor-auth');
    const login = await ssoLogin(provider, `admin.${randomId(6).toLowerCase()}@${domain}`);
    expect(login.status).toBe(200);
    const url = `${site.url}/~visitor-key`;
    expect((await fetch(url, { headers: { authorization: `Bearer ${login.body.token}` } })).status).toBe(200);
    await run(tokenEntity.update({ hash: sha256Hex(login.body.token) }, { set: { expiresAt: nowEpochSeconds() - 1 } }));
    const expired = await fetch(url, { headers: { authorization: `Bearer ${login.body.token}` } });
    expect(expired.status).toBe(401);
    expect(await expired.json()).toEqual({ error: { code: 401, message: 'The access token has expired' } });
  });
});

describe('accounts an SSO login creates', () => {
  it('keep a display name of emoji whole: cut at 100 characters, never inside one', async () => {
    const domain = `names-${randomId(6).toLowerCase()}.example`;
    const { provider } = await attackerOrgClaiming(domain);
    const login = await ssoLogin(provider, `emoji.${randomId(6).toLowerCase()}@${domain}`, { displayName: '🦊'.repeat(101) });
    expect(login.status, JSON.stringify(login.body)).toBe(200);
    const stored = userEntity.fromRecord((await getRecord(userEntity.key({ userId: login.body.user.id })))!);
    expect(stored.displayName).toBe('🦊'.repeat(100));
    expect(login.body.user.displayName).toBe('🦊'.repeat(100));
  });
});
