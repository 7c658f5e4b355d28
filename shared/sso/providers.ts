import { getRecord, queryPage } from '../db/operations.ts';
import { samlProviderEntity, samlProviderIdPartition, type SAMLProviderItem } from '../db/entities/saml-provider.ts';
import { notFound } from '../http/errors.ts';

/**
 * The provider a service-provider URL (/sso/saml/<id>/...) names: its org through the id
 * index, then the item itself read consistently (a certificate just rotated counts).
 */
export async function providerById(providerId: string): Promise<SAMLProviderItem> {
  const page = await queryPage({ index: 'gsi1', partition: samlProviderIdPartition(providerId), limit: 1 });
  const orgId = page.records[0]?.orgId as string | undefined;
  const record = orgId ? await getRecord(samlProviderEntity.key({ orgId, providerId }), true) : undefined;
  if (!record) throw notFound(`No SAML provider found with id ${providerId}`);
  return samlProviderEntity.fromRecord(record);
}
