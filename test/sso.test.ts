import { describe, expect, it } from 'vitest';
import { useTestApi, newOrg, newUser, type TestOrg } from './support/api.ts';
import { createTeam } from './support/factories.ts';
import { getRecord } from '../shared/db/operations.ts';
import { samlProviderEntity } from '../shared/db/entities/saml-provider.ts';
import { storedLike } from './support/stored.ts';

const api = useTestApi();

/** A self-signed test certificate (CN=idp.example.com). */
const certificate = `-----BEGIN CERTIFICATE-----
MIIDFTCCAf2gAwIBAgIUB8Ign+y7RdSiAw9QRAEykArijVUwDQYJKoZIhvcNAQEL
BQAwGjEYMBYGA1UEAwwPaWRwLmV4YW1wbGUuY29tMB4XDTI2MTEyMTA3MTYyMFoX
DTM2MTExODA3MTYyMFowGjEYMBYGA1UEAwwPaWRwLmV4YW1wbGUuY29tMIIBIjAN
BgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEAnhYls6omBUY/6LGiTcLtF32MWcq8
JVL0DXij78pL8VgUlGoA5LFcsS8qaHbq9xue3tM47xwlHczyLDleZtS/a7XUDDJ8
DeOZo6P2ZHOUQqTxBm5IFcOZCy4nvFlQmPyNegYUZD+dE5rosfxLev3IYypLETNz
gpG8NDm+UgGQUxdjLvd3+uObIMKQRl5vNR6gDt6sM+5vHxK6wqUZa78p84Q7A8B4
x6Y3AfyNtmeWoOFfjkgUrz8H2w7U6Ii+uHZnkDa01mhb3Hx+azVf/M6VXGlV9UBl
46AYBnvLjdVpioa4r3exG02H06HSH3qYaea+mD5odbkA3htYxb4UNCA9twIDAQAB
o1MwUTAdBgNVHQ4EFgQUl+Y94xKtJl7q1XMQv0xWc5qQE/wwHwYDVR0jBBgwFoAU
l+Y94xKtJl7q1XMQv0xWc5qQE/wwDwYDVR0TAQH/BAUwAwEB/zANBgkqhkiG9w0B
AQsFAAOCAQEAjnMZna+PIoXK4q6qqsGzMkvVazvKZ97e3KCBgdeZLboOCve77OQs
lgao7Alqf9W5jXlhwhWbxareCJ+rW1KJQVHF1iBfK/sObhKqF7dKyN8oqGW1ure7
PXjYX1zNojjSzMu2AJ4yDdY9VO8GM3BBmNEdK4kvuFhYByL/PqeZTNVw6nYpKhev
FXTi/ZBI9W21yZtxh3qpTXI1y84+bzG9MUGO4sGL9jUABhb1PYRSLc/gKlxvx/F3
0sh4R3yqI6FqWS4c1ccI8cYPLxm30uktgk1t4Z6eJ+lW8GMI1zbceEHKcAlFTlt5
c3SsW9gUfIZOADKfJv3iSD43DlYx4xj5gw==
-----END CERTIFICATE-----`;

const base = (org: TestOrg) => `/orgs/${org.id}/saml`;
const stored = async (org: TestOrg, providerId: string) => {
  const record = await getRecord(samlProviderEntity.key({ orgId: org.id, providerId }));
  return record ? samlProviderEntity.fromRecord(record) : undefined;
};
const providerCount = async (org: TestOrg) => (await storedLike(samlProviderEntity.key({ orgId: org.id, providerId: '' }))).length;
const valid = { label: 'Okta', entityID: 'http://www.okta.com/exk1', certificate, ssoURL: 'https://acme.okta.com/app/sso/saml' };


async function createProvider(org: TestOrg, body: Record<string, unknown> = valid) {
  const res = await api.request('POST', base(org), { token: org.admin.token, body });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

describe('POST /orgs/{organizationId}/saml', () => {
  it('creates a provider with its service addresses and embedded default team', async () => {
    const org = await newOrg();
    const team = await createTeam(api, org, { title: 'SSO people' });
    const res = await api.request('POST', base(org), { token: org.admin.token, body: { ...valid, defaultTeam: team.id, defaultRole: 'edit' } });
    expect(res.status).toBe(201);
    const id = res.body.id;
    expect(res.body).toEqual({
      object: 'saml-provider', id: expect.any(String), label: 'Okta', ssoURL: valid.ssoURL, entityID: valid.entityID,
      certificate: certificate.trim(), defaultTeam: { ...team, object: 'team' }, defaultRole: 'edit', createdAt: expect.any(String), status: 'active',
      service: {
        acsURL: `${api.url}/sso/saml/${id}/acs`, startURL: `${api.url}/sso/saml/${id}/start`, entityID: `${api.url}/sso/saml/${id}`,
      },
      urls: { location: `${api.url}/v1/orgs/${org.id}/saml/${id}` },
    });
    expect(res.headers.get('location')).toBe(res.body.urls.location);
    expect(await stored(org, id)).toMatchObject({ label: 'Okta', defaultTeam: team.id, defaultRole: 'edit', orgId: org.id });
    const plain = await createProvider(org);
    expect(plain.defaultRole).toBeNull();
    expect(plain.defaultTeam).toBeUndefined();
  });

  it('rejects bad bodies naming the field and writes nothing', async () => {
    const org = await newOrg();
    const other = await newOrg();
    const foreignTeam = await createTeam(api, other, { title: 'Elsewhere' });
    const broken = certificate.replace(/[A-Za-z]{20}/, 'AAAAAAAAAAAAAAAAAAAA');
    for (const [body, field] of [
      [{ ...valid, label: undefined }, 'label'], [{ ...valid, label: '' }, 'label'], [{ ...valid, label: 'x'.repeat(31) }, 'label'],
      [{ ...valid, entityID: '' }, 'entityID'], [{ ...valid, entityID: 'e'.repeat(1025) }, 'entityID'],
      [{ ...valid, certificate: 'not a certificate' }, 'certificate'], [{ ...valid, certificate: broken }, 'certificate'],
      [{ ...valid, certificate: '' }, 'certificate'], [{ ...valid, certificate: null }, 'certificate'], [{ ...valid, ssoURL: null }, 'ssoURL'],
      [{ ...valid, ssoURL: 'http://acme.okta.com/sso' }, 'ssoURL'], [{ ...valid, ssoURL: 'nope' }, 'ssoURL'],
      [{ ...valid, defaultRole: 'owner' }, 'defaultRole'], [{ ...valid, defaultTeam: 5 }, 'defaultTeam'],
      [{ ...valid, defaultTeam: 'no-such-team' }, 'defaultTeam'], [{ ...valid, defaultTeam: foreignTeam.id }, 'defaultTeam'],
      [{ ...valid, extra: true }, 'extra'],
    ] as const) {
      const res = await api.request('POST', base(org), { token: org.admin.token, body });
      expect(res.status, JSON.stringify(body).slice(0, 100)).toBe(400);
      expect(res.body.error.message, JSON.stringify(body).slice(0, 100)).toMatch(new RegExp(`^${field}: `));
    }
    expect(await providerCount(org)).toBe(0);
  });

  it('admin only: 403 for other roles, 404 across organizations, 401 without token', async () => {
    const org = await newOrg();
    const creator = await org.member('create');
    expect((await api.request('POST', base(org), { token: creator.token, body: valid })).status).toBe(403);
    const other = await newOrg();
    expect((await api.request('POST', base(org), { token: other.admin.token, body: valid })).status).toBe(404);
    expect((await api.request('POST', base(org), { body: valid })).status).toBe(401);
    expect(await providerCount(org)).toBe(0);
  });
});

describe('GET /orgs/{organizationId}/saml and /saml/{samlProviderId}', () => {
  it('lists with pagination and reads one; admin only', async () => {
    const org = await newOrg();
    const team = await createTeam(api, org, { title: 'Default' });
    const created: string[] = [];
    for (let i = 0; i < 5; i++) created.push((await createProvider(org, { ...valid, label: `IdP ${i}`, defaultTeam: team.id })).id);
    const other = await newOrg();
    await createProvider(other);
    const first = await api.request('GET', base(org), { token: org.admin.token, query: { limit: 2 } });
    expect(first.status).toBe(200);
    expect(first.body.count).toBe(2);
    expect(first.body.items[0]).toMatchObject({ object: 'saml-provider', defaultTeam: { id: team.id }, status: 'active' });
    const ids: string[] = first.body.items.map((p: { id: string }) => p.id);
    let page = first.body.next?.page;
    while (page) {
      const res = await api.request('GET', base(org), { token: org.admin.token, query: { limit: 2, page } });
      ids.push(...res.body.items.map((p: { id: string }) => p.id));
      page = res.body.next?.page;
    }
    expect(ids.sort()).toEqual([...created].sort());
    const one = await api.request('GET', `${base(org)}/${created[0]}`, { token: org.admin.token });
    expect(one.status).toBe(200);
    expect(one.body).toMatchObject({ id: created[0], label: 'IdP 0', defaultTeam: { id: team.id, title: 'Default' } });
    expect((await api.request('GET', `${base(org)}/missing`, { token: org.admin.token })).status).toBe(404);
    expect((await api.request('GET', `${base(other)}/${created[0]}`, { token: other.admin.token })).status).toBe(404);
    const editor = await org.member('edit');
    expect((await api.request('GET', base(org), { token: editor.token })).status).toBe(403);
    expect((await api.request('GET', `${base(org)}/${created[0]}`, { token: editor.token })).status).toBe(403);
    expect((await api.request('GET', base(org), { token: other.admin.token })).status).toBe(404);
    expect((await api.request('GET', `${base(org)}/${created[0]}`, { token: other.admin.token })).status).toBe(404);
    expect((await api.request('GET', base(org))).status).toBe(401);
    expect((await api.request('GET', base(org), { token: org.admin.token, query: { limit: 1001 } })).body.error.message).toMatch(/^limit: /);
    // A deleted default team is no longer embedded.
    await api.request('DELETE', `/orgs/${org.id}/teams/${team.id}`, { token: org.admin.token });
    const after = await api.request('GET', `${base(org)}/${created[0]}`, { token: org.admin.token });
    expect(after.body.defaultTeam).toBeUndefined();
  });
});

describe('PATCH /orgs/{organizationId}/saml/{samlProviderId}', () => {
  it('updates the given fields only', async () => {
    const org = await newOrg();
    const team = await createTeam(api, org, { title: 'Team A' });
    const provider = await createProvider(org, { ...valid, defaultTeam: team.id, defaultRole: 'read' });
    const res = await api.request('PATCH', `${base(org)}/${provider.id}`, { token: org.admin.token, body: { label: 'Azure AD', defaultRole: null } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: provider.id, label: 'Azure AD', defaultRole: null, entityID: valid.entityID, defaultTeam: { id: team.id } });
    expect(await stored(org, provider.id)).toMatchObject({ label: 'Azure AD', defaultRole: null, ssoURL: valid.ssoURL });
    const cleared = await api.request('PATCH', `${base(org)}/${provider.id}`, { token: org.admin.token, body: { defaultTeam: null, ssoURL: 'https://login.example.com/saml' } });
    expect(cleared.body.defaultTeam).toBeUndefined();
    expect(cleared.body.ssoURL).toBe('https://login.example.com/saml');
    expect((await stored(org, provider.id))!.defaultTeam).toBeUndefined();
    for (const [body, field] of [
      [{}, 'body'], [{ label: '' }, 'label'], [{ certificate: 'x' }, 'certificate'], [{ ssoURL: 'ftp://x' }, 'ssoURL'],
      [{ defaultTeam: 'nope' }, 'defaultTeam'], [{ status: 'pending' }, 'status'],
    ] as const) {
      const bad = await api.request('PATCH', `${base(org)}/${provider.id}`, { token: org.admin.token, body });
      expect(bad.status, JSON.stringify(body)).toBe(400);
      expect(bad.body.error.message).toMatch(new RegExp(`^${field}: `));
    }
    expect((await api.request('PATCH', `${base(org)}/missing`, { token: org.admin.token, body: { label: 'X' } })).status).toBe(404);
    const editor = await org.member('create');
    expect((await api.request('PATCH', `${base(org)}/${provider.id}`, { token: editor.token, body: { label: 'X' } })).status).toBe(403);
    const other = await newOrg();
    expect((await api.request('PATCH', `${base(org)}/${provider.id}`, { token: other.admin.token, body: { label: 'X' } })).status).toBe(404);
    expect((await api.request('PATCH', `${base(other)}/${provider.id}`, { token: other.admin.token, body: { label: 'X' } })).status).toBe(404);
    expect((await api.request('PATCH', `${base(org)}/${provider.id}`, { body: { label: 'X' } })).status).toBe(401);
    expect((await stored(org, provider.id))!.label).toBe('Azure AD');
  });
});

describe('DELETE /orgs/{organizationId}/saml/{samlProviderId}', () => {
  it('answers 205 when deleted, 204 when absent; admin only', async () => {
    const org = await newOrg();
    const provider = await createProvider(org);
    const editor = await org.member('edit');
    expect((await api.request('DELETE', `${base(org)}/${provider.id}`, { token: editor.token })).status).toBe(403);
    const other = await newOrg();
    expect((await api.request('DELETE', `${base(org)}/${provider.id}`, { token: other.admin.token })).status).toBe(404);
    expect((await api.request('DELETE', `${base(other)}/${provider.id}`, { token: other.admin.token })).status).toBe(204);
    expect((await api.request('DELETE', `${base(org)}/${provider.id}`)).status).toBe(401);
    expect(await stored(org, provider.id)).toBeDefined();
    expect((await api.request('DELETE', `${base(org)}/${provider.id}`, { token: org.admin.token })).status).toBe(205);
    expect(await stored(org, provider.id)).toBeUndefined();
    expect((await api.request('DELETE', `${base(org)}/${provider.id}`, { token: org.admin.token })).status).toBe(204);
  });
});

describe('GET /orgs/{organizationId}/sso', () => {
  it('lists the login options to any authenticated caller', async () => {
    const org = await newOrg();
    const a = await createProvider(org, { ...valid, label: 'Okta' });
    const b = await createProvider(org, { ...valid, label: 'Google' });
    const stranger = await newUser('Stranger');
    for (const token of [org.admin.token, (await org.member(null)).token, stranger.token]) {
      const res = await api.request('GET', `/orgs/${org.id}/sso`, { token });
      expect(res.status).toBe(200);
      expect(res.body.items.sort((x: { label: string }, y: { label: string }) => x.label.localeCompare(y.label))).toEqual([
        { id: b.id, label: 'Google', startURL: b.service.startURL },
        { id: a.id, label: 'Okta', startURL: a.service.startURL },
      ]);
      expect(Object.keys(res.body)).toEqual(['items']);
    }
    const empty = await newOrg();
    expect((await api.request('GET', `/orgs/${empty.id}/sso`, { token: stranger.token })).body).toEqual({ items: [] });
    expect((await api.request('GET', '/orgs/no-such-org/sso', { token: stranger.token })).status).toBe(404);
    expect((await api.request('GET', `/orgs/${org.id}/sso`)).status).toBe(401);
  });
});

describe('a provider created with its label only (pending)', () => {
  it('gives the service addresses first, serves the SP metadata, refuses logins until an admin completes it, then is active', async () => {
    const org = await newOrg();
    // The IdP (Okta, Entra ID) asks for the ACS URL and SP entity id before it shows its own side.
    const res = await api.request('POST', base(org), { token: org.admin.token, body: { label: 'Entra ID' } });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const id = res.body.id;
    expect(res.body).toMatchObject({
      label: 'Entra ID', status: 'pending', entityID: '', certificate: '', ssoURL: '', defaultRole: null,
      service: { acsURL: `${api.url}/sso/saml/${id}/acs`, startURL: `${api.url}/sso/saml/${id}/start`, entityID: `${api.url}/sso/saml/${id}` },
    });
    const record = (await stored(org, id))!;
    expect(record.label).toBe('Entra ID');
    expect(['entityID', 'certificate', 'ssoURL'].filter((k) => k in record)).toEqual([]);
    expect((await api.request('GET', `${base(org)}/${id}`, { token: org.admin.token })).body.status).toBe('pending');
    expect((await api.request('GET', base(org), { token: org.admin.token })).body.items.map((p: { status: string }) => p.status)).toEqual(['pending']);

    const metadata = await fetch(res.body.service.entityID);
    expect(metadata.status).toBe(200);
    expect(await metadata.text()).toContain(`Location="${res.body.service.acsURL}"`);
    const start = await fetch(res.body.service.startURL, { redirect: 'manual' });
    expect(start.status).toBe(409);
    expect(await start.json()).toEqual({ error: { code: 409, message: `SAML provider ${id} is not configured yet (missing entityID, certificate, ssoURL): an administrator of the organization must complete it` } });
    const acs = await fetch(res.body.service.acsURL, { method: 'POST', body: new URLSearchParams({ SAMLResponse: 'PHg+' }) });
    expect(acs.status).toBe(409);
    expect((await api.request('GET', `/orgs/${org.id}/sso`, { token: org.admin.token })).body).toEqual({ items: [] });

    const partial = await api.request('PATCH', `${base(org)}/${id}`, { token: org.admin.token, body: { entityID: valid.entityID, certificate } });
    expect(partial.body).toMatchObject({ status: 'pending', entityID: valid.entityID, ssoURL: '' });
    expect((await (await fetch(res.body.service.startURL, { redirect: 'manual' })).json()).error.message).toMatch(/missing ssoURL\)/);

    const done = await api.request('PATCH', `${base(org)}/${id}`, { token: org.admin.token, body: { ssoURL: valid.ssoURL } });
    expect(done.status).toBe(200);
    expect(done.body).toMatchObject({ status: 'active', ssoURL: valid.ssoURL, entityID: valid.entityID, certificate: certificate.trim() });
    expect((await stored(org, id))!.ssoURL).toBe(valid.ssoURL);
    const redirect = await fetch(res.body.service.startURL, { redirect: 'manual' });
    expect(redirect.status).toBe(302);
    expect(redirect.headers.get('location')!.startsWith(`${valid.ssoURL}?SAMLRequest=`)).toBe(true);
    expect((await api.request('GET', `/orgs/${org.id}/sso`, { token: org.admin.token })).body.items).toEqual([{ id, label: 'Entra ID', startURL: res.body.service.startURL }]);
  });
});
