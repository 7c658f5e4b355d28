import { nowIso } from '../../clock.ts';
import { randomId } from '../../ids.ts';
import { samlProviderEntity, type SAMLProviderItem } from '../../db/entities/saml-provider.ts';
import { run } from '../../db/writes.ts';

export type ProviderFields = Pick<SAMLProviderItem, 'label' | 'entityID' | 'certificate' | 'ssoURL' | 'defaultTeam' | 'defaultRole'>;

export async function createSAMLProvider(orgId: string, fields: ProviderFields): Promise<SAMLProviderItem> {
  const now = nowIso();
  const provider: SAMLProviderItem = {
    id: randomId(), orgId, label: fields.label,
    ...(fields.entityID !== undefined ? { entityID: fields.entityID } : {}),
    ...(fields.certificate !== undefined ? { certificate: fields.certificate } : {}),
    ...(fields.ssoURL !== undefined ? { ssoURL: fields.ssoURL } : {}),
    ...(fields.defaultTeam !== undefined ? { defaultTeam: fields.defaultTeam } : {}),
    defaultRole: fields.defaultRole, createdAt: now, updatedAt: now,
  };
  await run(samlProviderEntity.create({ orgId, providerId: provider.id }, provider));
  return provider;
}
