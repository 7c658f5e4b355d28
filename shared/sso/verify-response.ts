import { DOMParser } from '@xmldom/xmldom';
import { SamlStatusError, type Profile } from '@node-saml/node-saml';
import type { ConfiguredSAMLProvider } from './providers.ts';
import { samlService } from '../presenters/saml-provider.ts';
import { badRequest } from '../http/errors.ts';
import { samlClient } from './saml-client.ts';
import { refused } from './errors.ts';
import { refuseKnownAssertion } from './replay-store.ts';
import { CLOCK_SKEW_MS, MAX_ASSERTION_ID_CHARS } from './settings.ts';

const PROTOCOL_NS = 'urn:oasis:names:tc:SAML:2.0:protocol';

/** What a verified assertion tells about the person, and what the replay store needs. */
export interface VerifiedAssertion {
  profile: Profile;
  /** The pending request the response answers (node-saml checked it was one of this provider's). */
  inResponseTo?: string;
  assertionId: string;
  /** Epoch ms after which the assertion can no longer be accepted (its NotOnOrAfter plus skew). */
  usableUntilMs: number;
}

/**
 * Verifies a base64 SAMLResponse posted to the provider's acsURL. The signature, audience,
 * timestamps and InResponseTo are node-saml's (saml-client.ts); on the signed assertion it
 * returns, this adds Issuer = the provider's entityID and Recipient = acsURL, and on the
 * response Destination = acsURL. A DTD is refused before any parsing (XXE, entity bombs).
 */
export async function verifySAMLResponse(provider: ConfiguredSAMLProvider, samlResponse: string): Promise<VerifiedAssertion> {
  const xml = Buffer.from(samlResponse, 'base64').toString('utf8');
  if (/<!DOCTYPE/i.test(xml)) throw badRequest('SAMLResponse: must not contain a document type declaration (DTD)');
  const { acsURL } = samlService(provider);
  const claimedAssertionId = checkEnvelope(xml, acsURL, provider.entityID);
  // A replay is named as such, before node-saml finds its request already answered.
  if (claimedAssertionId) await refuseKnownAssertion(provider.id, claimedAssertionId);

  let profile: Profile | null;
  try {
    ({ profile } = await samlClient(provider).validatePostResponseAsync({ SAMLResponse: samlResponse }));
  } catch (error) {
    // node-saml's messages say what failed ("Invalid signature", "SAML assertion expired: ...");
    // anything else (a TypeError on a malformed document) is just not a valid response.
    const known = error instanceof Error && error.constructor === Error && error.message;
    if (error instanceof SamlStatusError) throw refused(statusRefusal(error.message));
    throw refused(known ? (clearer[error.message] ?? error.message.slice(0, 300)) : 'is not a valid SAML response');
  }
  if (!profile) throw refused('carries no assertion');
  if (profile.issuer !== provider.entityID) throw refused(`the assertion's Issuer is not the provider's entityID ${provider.entityID}`);

  const assertion = (profile.getAssertion?.() as { Assertion?: SignedAssertion } | undefined)?.Assertion;
  const confirmations = (assertion?.Subject?.[0]?.SubjectConfirmation ?? []).flatMap((s) => s.SubjectConfirmationData ?? []);
  if (confirmations.length === 0 || confirmations.some((d) => d.$?.Recipient !== acsURL)) {
    throw refused(`the assertion's SubjectConfirmationData Recipient must be ${acsURL}`);
  }
  const assertionId = assertion?.$?.ID;
  if (!assertionId || assertionId.length > MAX_ASSERTION_ID_CHARS) throw refused('the assertion has no usable ID');
  const notOnOrAfter = [assertion.Conditions?.[0]?.$?.NotOnOrAfter, ...confirmations.map((d) => d.$?.NotOnOrAfter)]
    .map((t) => (t ? Date.parse(t) : NaN)).filter((t) => Number.isFinite(t));
  if (notOnOrAfter.length === 0) throw refused('the assertion has no NotOnOrAfter');
  const inResponseTo = typeof profile.inResponseTo === 'string' ? profile.inResponseTo : undefined;
  return { profile, inResponseTo, assertionId, usableUntilMs: Math.max(...notOnOrAfter) + CLOCK_SKEW_MS };
}

/** node-saml messages that name a symptom rather than its cause. */
const clearer: Record<string, string> = {
  'No valid subject confirmation found among those available in the SAML assertion':
    'SAML assertion expired: no SubjectConfirmationData is valid now (NotBefore/NotOnOrAfter, 3 minutes of clock skew)',
  // What an app tile at the identity provider (IdP-initiated sign-in) posts.
  'InResponseTo is missing from response':
    'InResponseTo is missing: sign-ins started at the identity provider are not accepted, start at the provider\'s startURL',
};

/**
 * A Response whose Status is not Success (the person is not assigned to the application,
 * cancelled, failed MFA): the identity provider's own words, e.g. "Responder error: User is
 * not assigned to this application" (node-saml says "SAML provider returned ...").
 */
function statusRefusal(message: string): string {
  return `the identity provider refused the sign-in: ${message.replace(/^SAML provider returned /, '').slice(0, 300)}`;
}

/** The parts of node-saml's xml2js view of the signed assertion read here. */
interface SignedAssertion {
  $?: { ID?: string };
  Conditions?: { $?: { NotOnOrAfter?: string } }[];
  Subject?: { SubjectConfirmation?: { SubjectConfirmationData?: { $?: { Recipient?: string; NotOnOrAfter?: string } }[] }[] }[];
}

/**
 * The Response must be addressed to this provider's acsURL (a response meant for another
 * service provider is refused), and an Issuer on it must be the provider's. Returns the id
 * its assertion claims (unverified: only good for refusing a replay early).
 */
function checkEnvelope(xml: string, acsURL: string, entityID: string): string | undefined {
  let root: Element | null = null;
  try {
    root = new DOMParser({ errorHandler: { error: fail, fatalError: fail } }).parseFromString(xml, 'text/xml').documentElement;
  } catch {
    throw badRequest('SAMLResponse: is not a well-formed XML document');
  }
  if (!root || root.localName !== 'Response' || root.namespaceURI !== PROTOCOL_NS) throw badRequest('SAMLResponse: is not a SAML 2.0 Response');
  if (root.getAttribute('Destination') !== acsURL) throw refused(`the response's Destination must be ${acsURL}`);
  const children = Array.from(root.childNodes) as Element[];
  const issuer = children.find((n) => n.localName === 'Issuer');
  if (issuer && issuer.textContent?.trim() !== entityID) throw refused(`the response's Issuer is not the provider's entityID ${entityID}`);
  const id = children.find((n) => n.localName === 'Assertion')?.getAttribute('ID');
  return id && id.length <= MAX_ASSERTION_ID_CHARS ? id : undefined;
}

function fail(message: string): never {
  throw new Error(message);
}
