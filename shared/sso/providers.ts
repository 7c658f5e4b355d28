import { samlProviderEntity, type SAMLProviderItem } from '../db/entities/saml-provider.ts';
import { notFound } from '../http/errors.ts';

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
