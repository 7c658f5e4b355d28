import { X509Certificate } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { newOrg, useTestApi, type TestOrg } from './support/api.ts';
import { createTestIdP, type TestIdP } from './support/saml-idp.ts';
import { getRecord } from '../shared/db/operations.ts';
import { samlProviderEntity } from '../shared/db/entities/saml-provider.ts';
import { storedLike } from './support/stored.ts';
import { randomId } from '../shared/ids.ts';

/**
 * The IdP certificate as admins paste it into createOrganizationSAMLProvider / update:
 * from a .pem file, from the metadata's <X509Certificate> (base64 only, wrapped and
 * indented), from openssl's text output. Stored as one canonical PEM that logins verify with.
 */
const api = useTestApi();
let idp: TestIdP;
beforeAll(async () => {
  idp = await createTestIdP('certs');
});

const base64Of = (pem: string) => pem.replace(/-----(BEGIN|END) CERTIFICATE-----/g, '').replace(/\s+/g, '');
const canonical = () => new X509Certificate(idp.certificate).toString().trim();
const body = (certificate: string) => ({ label: 'Okta', entityID: idp.entityID, certificate, ssoURL: idp.ssoURL });
const stored = async (org: TestOrg, providerId: string) =>
  samlProviderEntity.fromRecord((await getRecord(samlProviderEntity.key({ orgId: org.id, providerId })))!);
const providerCount = async (org: TestOrg) => (await storedLike(samlProviderEntity.key({ orgId: org.id, providerId: '' }))).length;

/** A full SP-initiated login through the provider; the JSON answer's status. */
async function loginStatus(provider: { service: { startURL: string; acsURL: string; entityID: string } }, by: TestIdP = idp): Promise<number> {
  const started = await fetch(provider.service.startURL, { redirect: 'manual' });
  const requestId = by.readAuthnRequest(started.headers.get('location')!).id;
  const email = `cert.${randomId(8).toLowerCase()}@acme.example`;
  const SAMLResponse = by.response({ acsURL: provider.service.acsURL, audience: provider.service.entityID, inResponseTo: requestId, email });
  const res = await fetch(provider.service.acsURL, { method: 'POST', body: new URLSearchParams({ SAMLResponse }), headers: { accept: 'application/json' } });
  return res.status;
}

describe('SAML provider certificate as pasted', () => {
  it('accepts a PEM or its base64 body however it is wrapped, and stores the one PEM logins verify with', async () => {
    const org = await newOrg();
    const b64 = base64Of(idp.certificate);
    const pasted: Record<string, string> = {
      'PEM with CRLF': idp.certificate.replace(/\n/g, '\r\n'),
      'base64 on one line (metadata <X509Certificate>)': b64,
      'base64 wrapped and indented (copied out of metadata XML)': `\n        ${b64.match(/.{1,76}/g)!.join('\n        ')}\n      `,
      'PEM on one line': `-----BEGIN CERTIFICATE-----${b64}-----END CERTIFICATE-----`,
      'PEM with openssl text around it': `subject=CN=certs.test\nissuer=CN=certs.test\n${idp.certificate}\nBag Attributes: <none>\n`,
    };
    for (const [how, certificate] of Object.entries(pasted)) {
      const res = await api.request('POST', `/orgs/${org.id}/saml`, { token: org.admin.token, body: body(certificate) });
      expect(res.status, `${how}: ${JSON.stringify(res.body)}`).toBe(201);
      expect(res.body.certificate, how).toBe(canonical());
      expect((await stored(org, res.body.id)).certificate, how).toBe(canonical());
      expect(await loginStatus(res.body), how).toBe(200);
    }
    // PATCH takes it the same way.
    const provider = (await api.request('POST', `/orgs/${org.id}/saml`, { token: org.admin.token, body: body(idp.certificate) })).body;
    const patched = await api.request('PATCH', `/orgs/${org.id}/saml/${provider.id}`, { token: org.admin.token, body: { certificate: `  ${b64}  ` } });
    expect(patched.status, JSON.stringify(patched.body)).toBe(200);
    expect(patched.body.certificate).toBe(canonical());
    expect((await stored(org, provider.id)).certificate).toBe(canonical());
  });

  it('refuses what is not one certificate, saying what was pasted, and stores nothing', async () => {
    const org = await newOrg();
    const other = await createTestIdP('other-certs');
    const key = '-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7\n-----END PRIVATE KEY-----';
    const metadata = `<?xml version="1.0"?><md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata" entityID="${idp.entityID}">`
      + `<md:IDPSSODescriptor><md:KeyDescriptor use="signing"><ds:KeyInfo xmlns:ds="http://www.w3.org/2000/09/xmldsig#"><ds:X509Data><ds:X509Certificate>${base64Of(idp.certificate)}</ds:X509Certificate></ds:X509Data></ds:KeyInfo></md:KeyDescriptor></md:IDPSSODescriptor></md:EntityDescriptor>`;
    const cases: [string, string][] = [
      [`${idp.certificate}\n${other.certificate}`, 'certificate: must be one certificate, the one the identity provider signs with'],
      [`${key}\n${idp.certificate}`, 'certificate: contains a private key: paste only the identity provider\'s certificate'],
      [metadata, 'certificate: is XML: paste the certificate itself (the text of the metadata\'s <X509Certificate> element)'],
      [idp.certificate.slice(0, 400), 'certificate: must be a PEM-encoded X.509 certificate'],
      [base64Of(idp.certificate).slice(0, 300), 'certificate: must be a PEM-encoded X.509 certificate'],
      ['-----BEGIN CERTIFICATE-----\nbm90IGEgY2VydGlmaWNhdGU=\n-----END CERTIFICATE-----', 'certificate: must be a PEM-encoded X.509 certificate'],
      ['', 'certificate: must be a PEM-encoded X.509 certificate'],
    ];
    for (const [certificate, message] of cases) {
      const res = await api.request('POST', `/orgs/${org.id}/saml`, { token: org.admin.token, body: body(certificate) });
      expect(res.status, certificate.slice(0, 60)).toBe(400);
      expect(res.body).toEqual({ error: { code: 400, message } });
    }
    expect(await providerCount(org)).toBe(0);

    const provider = (await api.request('POST', `/orgs/${org.id}/saml`, { token: org.admin.token, body: body(idp.certificate) })).body;
    const patched = await api.request('PATCH', `/orgs/${org.id}/saml/${provider.id}`, { token: org.admin.token, body: { certificate: `${idp.certificate}\n${other.certificate}` } });
    expect(patched.status).toBe(400);
    expect(patched.body.error.message).toBe('certificate: must be one certificate, the one the identity provider signs with');
    expect((await stored(org, provider.id)).certificate).toBe(canonical());
  });

  it('accepts an expired certificate: the key verifies the signature, as identity providers keep signing with one', async () => {
    const org = await newOrg();
    const expired = await createTestIdP('expired', { notBefore: new Date(Date.now() - 3 * 365 * 86_400_000), notAfter: new Date(Date.now() - 86_400_000) });
    const res = await api.request('POST', `/orgs/${org.id}/saml`, {
      token: org.admin.token, body: { ...body(expired.certificate), entityID: expired.entityID, ssoURL: expired.ssoURL },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(await loginStatus(res.body, expired)).toBe(200);
  });
});
