import { samlProviderEntity, type SAMLProviderItem } from '../db/entities/saml-provider.ts';
import { ApiError, notFound } from '../http/errors.ts';

/** A provider with its identity provider's side set: the only kind a login can go through. */
export type ConfiguredSAMLProvider = SAMLProviderItem & Required<Pick<SAMLProviderItem, 'entityID' | 'certificate' | 'ssoURL'>>;

const IDP_FIELDS = ['entityID', 'certificate', 'ssoURL'] as const;

/** `active` once entityID, certificate and ssoURL are all set; `pending` before (public SAMLProviderStatus). */
export function providerStatus(provider: SAMLProviderItem): 'active' | 'pending' {
  return IDP_FIELDS.every((field) => provider[field] !== undefined) ? 'active' : 'pending';
}

/** 409 for a pending provider: nobody can sign in through it until an admin completes it. */
export function requireConfigured(provider: SAMLProviderItem): ConfiguredSAMLProvider {
  const missing = IDP_FIELDS.filter((field) => provider[field] === undefined);
  if (missing.length > 0) {
    throw new ApiError(409, `SAML provider ${provider.id} is not configured yet (missing ${missing.join(', ')}): an administrator of the organization must complete it`);
  }
  return provider as ConfiguredSAMLProvider;
}

/**
 * The provider a service-provider URL (/sso/saml/<id>/...) names: its org through the id
 * index, then the item itself read consistently (a certificate just rotated counts).
 */
export async function providerById(providerId: string): Promise<SAMLProviderItem> {
  const page = await samlProviderEntity.query.byId({ id: providerId }).page({ limit: 1 });
  const orgId = page.items[0]?.orgId;
  const provider = orgId ? await samlProviderEntity.get({ orgId, providerId }, { consistent: true }) : undefined;
  if (!provider) throw notFound(`No SAML provider found with id ${providerId}`);
  return provider;
}
