import { nowIso } from '../../clock.ts';
import { randomId } from '../../ids.ts';
import { samlProviderEntity, type SAMLProviderItem } from '../../db/entities/saml-provider.ts';
import { notFound } from '../../http/errors.ts';
import { NotFound } from '../../db/errors.ts';
import { run } from '../../db/writes.ts';

export type ProviderFields = Pick<SAMLProviderItem, 'label' | 'entityID' | 'certificate' | 'ssoURL' | 'defaultTeam' | 'defaultRole'>;

export async function createSAMLProvider(orgId: string, fields: ProviderFields): Promise<SAMLProviderItem> {
  const now = nowIso();
  const provider: SAMLProviderItem = {
    id: randomId(), orgId, label: fields.label, entityID: fields.entityID, certificate: fields.certificate, ssoURL: fields.ssoURL,
    ...(fields.defaultTeam !== undefined ? { defaultTeam: fields.defaultTeam } : {}),
    defaultRole: fields.defaultRole, createdAt: now, updatedAt: now,
  };
  await run(samlProviderEntity.create({ orgId, providerId: provider.id }, provider));
  return provider;
}

/** Sets the given fields (defaultTeam null removes it); 404 when the provider is absent. */
export async function updateSAMLProvider(
  orgId: string, providerId: string, changes: Partial<Omit<ProviderFields, 'defaultTeam'>> & { defaultTeam?: string | null },
): Promise<SAMLProviderItem> {
  const { defaultTeam, ...fields } = changes;
  try {
    return await run(samlProviderEntity.update({ orgId, providerId }, {
      set: { ...fields, ...(typeof defaultTeam === 'string' ? { defaultTeam } : {}), updatedAt: nowIso() },
      ...(defaultTeam === null ? { remove: ['defaultTeam'] } : {}),
    }));
  } catch (error) {
    if (error instanceof NotFound) throw notFound(`No SAML provider found with id ${providerId}`);
    throw error;
  }
}

/** Returns whether there was a provider to delete. */
export async function deleteSAMLProvider(orgId: string, providerId: string): Promise<boolean> {
  return (await run(samlProviderEntity.delete({ orgId, providerId }))) !== undefined;
}
