import { webcrypto } from 'node:crypto';
import { inflateRawSync } from 'node:zlib';
import * as x509 from '@peculiar/x509';
import { SignedXml } from 'xml-crypto';
import { DOMParser, XMLSerializer } from '@xmldom/xmldom';
import { randomId } from '../../shared/ids.ts';

/**
 * A SAML identity provider for tests: its own RSA key pair and self-signed certificate
 * (@peculiar/x509), responses signed with xml-crypto the way Okta or Keycloak sign them.
 * Options build every kind of bad response the service must refuse.
 */

const RSA_SHA256 = 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256';
const SHA256 = 'http://www.w3.org/2001/04/xmlenc#sha256';
const EXC_C14N = 'http://www.w3.org/2001/10/xml-exc-c14n#';
const ENVELOPED = 'http://www.w3.org/2000/09/xmldsig#enveloped-signature';
const EMAIL_FORMAT = 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress';

export interface AuthnRequest {
  id: string;
  issuer: string;
  destination: string;
  acsURL: string;
  relayState: string | null;
}

export interface ResponseOptions {
  inResponseTo?: string | null;
  /** acsURL of the provider: Destination and Recipient unless overridden. */
  acsURL: string;
  /** SP entity id: the Audience unless overridden. */
  audience: string;
  email: string;
  nameID?: string;
  attributes?: Record<string, string>;
  destination?: string;
  recipient?: string;
  issuer?: string;
  assertionId?: string;
  /** Offsets from now, in ms. */
  notBefore?: number;
  notOnOrAfter?: number;
  sign?: 'assertion' | 'response' | 'both' | 'none';
  /** Applied to the XML after signing. */
  tamper?: (xml: string) => string;
  /** Signature wrapping: an unsigned assertion for `wrapEmail` in front, the signed one hidden inside it. */
  wrapEmail?: string;
  /** ID of the attacker's assertion (default: the signed one's). */
  wrapAssertionId?: string;
  /** Text put before the root element (a DOCTYPE). */
  prolog?: string;
  /** An error answer: this Status (second-level code, message) and no assertion. */
  status?: { code: string; subCode?: string; message?: string };
}

export interface TestIdP {
  entityID: string;
  ssoURL: string;
  certificate: string;
  /** The AuthnRequest carried by a redirect to this IdP (HTTP-Redirect binding). */
  readAuthnRequest(location: string): AuthnRequest;
  /** A base64 SAMLResponse as posted to the acsURL. */
  response(options: ResponseOptions): string;
}

/** The certificate's validity (default: from yesterday for a year); an expired one still signs. */
export interface IdPOptions {
  notBefore?: Date;
  notAfter?: Date;
}

export async function createTestIdP(name = 'idp', options: IdPOptions = {}): Promise<TestIdP> {
  const algorithm = { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256', publicExponent: new Uint8Array([1, 0, 1]), modulusLength: 2048 };
  const keys = await webcrypto.subtle.generateKey(algorithm, true, ['sign', 'verify']);
  x509.cryptoProvider.set(webcrypto as unknown as Crypto);
  const cert = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: '01', name: `CN=${name}.test`, keys: keys as CryptoKeyPair, signingAlgorithm: algorithm,
    notBefore: options.notBefore ?? new Date(Date.now() - 86_400_000), notAfter: options.notAfter ?? new Date(Date.now() + 365 * 86_400_000),
  });
  const pkcs8 = Buffer.from(await webcrypto.subtle.exportKey('pkcs8', keys.privateKey));
  const privateKey = `-----BEGIN PRIVATE KEY-----\n${pkcs8.toString('base64').match(/.{1,64}/g)!.join('\n')}\n-----END PRIVATE KEY-----\n`;
  const certificate = cert.toString('pem');
  const entityID = `https://${name}.test/${randomId(8)}/metadata`;

  function sign(xml: string, target: 'Assertion' | 'Response'): string {
    const signer = new SignedXml({ privateKey, publicCert: certificate, signatureAlgorithm: RSA_SHA256, canonicalizationAlgorithm: EXC_C14N });
    const element = target === 'Assertion' ? "//*[local-name(.)='Assertion']" : "/*[local-name(.)='Response']";
    signer.addReference({ xpath: element, digestAlgorithm: SHA256, transforms: [ENVELOPED, EXC_C14N] });
    signer.computeSignature(xml, { prefix: 'ds', location: { reference: `${element}/*[local-name(.)='Issuer']`, action: 'after' } });
    return signer.getSignedXml();
  }

  return {
    entityID,
    ssoURL: `https://${name}.test/sso/saml`,
    certificate,
    readAuthnRequest(location) {
      const url = new URL(location);
      const xml = inflateRawSync(Buffer.from(url.searchParams.get('SAMLRequest')!, 'base64')).toString('utf8');
      const root = new DOMParser().parseFromString(xml, 'text/xml').documentElement!;
      return {
        id: root.getAttribute('ID')!,
        destination: root.getAttribute('Destination')!,
        acsURL: root.getAttribute('AssertionConsumerServiceURL')!,
        issuer: root.getElementsByTagNameNS('urn:oasis:names:tc:SAML:2.0:assertion', 'Issuer')[0]!.textContent!,
        relayState: url.searchParams.get('RelayState'),
      };
    },
    response(o) {
      const now = Date.now();
      const at = (offset: number) => new Date(now + offset).toISOString();
      const issuer = o.issuer ?? entityID;
      const inResponseTo = o.inResponseTo ? ` InResponseTo="${o.inResponseTo}"` : '';
      const attributes = Object.entries(o.attributes ?? {}).map(([name, value]) =>
        `<saml:Attribute Name="${name}"><saml:AttributeValue>${value}</saml:AttributeValue></saml:Attribute>`).join('');
      const assertion = (id: string, email: string) => `<saml:Assertion xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="${id}" Version="2.0" IssueInstant="${at(0)}">`
        + `<saml:Issuer>${issuer}</saml:Issuer>`
        + `<saml:Subject><saml:NameID Format="${EMAIL_FORMAT}">${o.nameID ?? email}</saml:NameID>`
        + '<saml:SubjectConfirmation Method="urn:oasis:names:tc:SAML:2.0:cm:bearer">'
        + `<saml:SubjectConfirmationData${inResponseTo} NotOnOrAfter="${at(o.notOnOrAfter ?? 300_000)}" Recipient="${o.recipient ?? o.acsURL}"/>`
        + '</saml:SubjectConfirmation></saml:Subject>'
        + `<saml:Conditions NotBefore="${at(o.notBefore ?? -60_000)}" NotOnOrAfter="${at(o.notOnOrAfter ?? 300_000)}">`
        + `<saml:AudienceRestriction><saml:Audience>${o.audience}</saml:Audience></saml:AudienceRestriction></saml:Conditions>`
        + `<saml:AuthnStatement AuthnInstant="${at(0)}" SessionIndex="_s${randomId(12)}"><saml:AuthnContext>`
        + '<saml:AuthnContextClassRef>urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport</saml:AuthnContextClassRef>'
        + '</saml:AuthnContext></saml:AuthnStatement>'
        + (attributes ? `<saml:AttributeStatement>${attributes}</saml:AttributeStatement>` : '')
        + '</saml:Assertion>';
      const assertionId = o.assertionId ?? `_a${randomId(24)}`;
      let xml = `<samlp:Response xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" ID="_r${randomId(24)}" Version="2.0" IssueInstant="${at(0)}"`
        + ` Destination="${o.destination ?? o.acsURL}"${inResponseTo}>`
        + `<saml:Issuer xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion">${issuer}</saml:Issuer>`
        + (o.status ? errorStatus(o.status) : '<samlp:Status><samlp:StatusCode Value="urn:oasis:names:tc:SAML:2.0:status:Success"/></samlp:Status>')
        + (o.status ? '' : assertion(assertionId, o.email))
        + '</samlp:Response>';
      const mode = o.sign ?? 'assertion';
      if (mode === 'assertion' || mode === 'both') xml = sign(xml, 'Assertion');
      if (mode === 'response' || mode === 'both') xml = sign(xml, 'Response');
      if (o.wrapEmail) xml = wrap(xml, assertion(o.wrapAssertionId ?? assertionId, o.wrapEmail));
      if (o.tamper) xml = o.tamper(xml);
      if (o.prolog) xml = `${o.prolog}${xml}`;
      return Buffer.from(xml).toString('base64');
    },
  };
}

function errorStatus(status: NonNullable<ResponseOptions['status']>): string {
  const code = (name: string) => `urn:oasis:names:tc:SAML:2.0:status:${name}`;
  const sub = status.subCode ? `<samlp:StatusCode Value="${code(status.subCode)}"/>` : '';
  const message = status.message ? `<samlp:StatusMessage>${status.message}</samlp:StatusMessage>` : '';
  return `<samlp:Status><samlp:StatusCode Value="${code(status.code)}">${sub}</samlp:StatusCode>${message}</samlp:Status>`;
}

/**
 * Signature wrapping (XSW): the attacker's assertion, with the same ID and a copy of the
 * original Signature, takes the signed one's place; the signed original moves into the
 * Response's Extensions, where a naive verifier would still find the referenced ID.
 */
function wrap(signedXml: string, evilAssertionXml: string): string {
  const doc = new DOMParser().parseFromString(signedXml, 'text/xml');
  const response = doc.documentElement!;
  const original = doc.getElementsByTagNameNS('urn:oasis:names:tc:SAML:2.0:assertion', 'Assertion')[0]!;
  const signature = original.getElementsByTagNameNS('http://www.w3.org/2000/09/xmldsig#', 'Signature')[0]!.cloneNode(true);
  const evil = doc.importNode(new DOMParser().parseFromString(evilAssertionXml, 'text/xml').documentElement!, true) as Element;
  evil.insertBefore(signature, evil.getElementsByTagNameNS('urn:oasis:names:tc:SAML:2.0:assertion', 'Subject')[0]!);
  const extensions = doc.createElementNS('urn:oasis:names:tc:SAML:2.0:protocol', 'samlp:Extensions');
  response.replaceChild(evil, original);
  extensions.appendChild(original);
  const issuer = response.getElementsByTagNameNS('urn:oasis:names:tc:SAML:2.0:assertion', 'Issuer')[0]!;
  response.insertBefore(extensions, issuer.nextSibling);
  return new XMLSerializer().serializeToString(doc);
}
