import { SAML, ValidateInResponseTo, generateServiceProviderMetadata, type CacheProvider } from '@node-saml/node-saml';
import type { SAMLProviderItem } from '../db/entities/saml-provider.ts';
import { samlService } from '../presenters/saml-provider.ts';
import { pendingRequests } from './pending-requests.ts';
import type { ConfiguredSAMLProvider } from './providers.ts';
import { CLOCK_SKEW_MS, PENDING_REQUEST_TTL_SECONDS } from './settings.ts';

export const NAMEID_EMAIL = 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress';
export const NAMEID_UNSPECIFIED = 'urn:oasis:names:tc:SAML:1.1:nameid-format:unspecified';

/**
 * The service provider of one SAML provider, as @node-saml/node-saml checks it: the
 * provider's certificate must have signed the response or the assertion (never neither),
 * the audience is this SP's entity id, timestamps allow CLOCK_SKEW_MS, and InResponseTo
 * must name a pending request of this provider. Issuer, Destination, Recipient and replay
 * are checked on top of it (verify-response.ts): node-saml does not check them.
 */
export function samlClient(provider: ConfiguredSAMLProvider, cache: CacheProvider = pendingRequests(provider)): SAML {
  const sp = samlService(provider);
  return new SAML({
    issuer: sp.entityID,
    audience: sp.entityID,
    callbackUrl: sp.acsURL,
    entryPoint: provider.ssoURL,
    idpCert: provider.certificate,
    wantAuthnResponseSigned: false,
    wantAssertionsSigned: false,
    acceptedClockSkewMs: CLOCK_SKEW_MS,
    validateInResponseTo: ValidateInResponseTo.always,
    requestIdExpirationPeriodMs: PENDING_REQUEST_TTL_SECONDS * 1000,
    cacheProvider: cache,
    identifierFormat: NAMEID_EMAIL,
    // Identity providers that used MFA answer an exact password context with an error (Entra ID).
    disableRequestedAuthnContext: true,
  });
}

/** The SP metadata XML (EntityDescriptor) an identity provider imports. */
export function serviceProviderMetadata(provider: Pick<SAMLProviderItem, 'id'>): string {
  const sp = samlService(provider);
  return generateServiceProviderMetadata({
    issuer: sp.entityID,
    callbackUrl: sp.acsURL,
    // node-saml's XML builder writes one NameIDFormat element per entry.
    identifierFormat: [NAMEID_EMAIL, NAMEID_UNSPECIFIED] as unknown as string,
    wantAssertionsSigned: true,
  });
}
