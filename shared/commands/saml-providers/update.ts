import { nowIso } from '../../clock.ts';
import { samlProviderEntity, type SAMLProviderItem } from '../../db/entities/saml-provider.ts';
import { notFound } from '../../http/errors.ts';
import { NotFound } from '../../db/errors.ts';
import { run } from '../../db/writes.ts';
import type { ProviderFields } from './create.ts';

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
