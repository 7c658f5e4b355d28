import { samlProviderEntity } from '../../db/entities/saml-provider.ts';
import { run } from '../../db/writes.ts';

/** Returns whether there was a provider to delete. */
export async function deleteSAMLProvider(orgId: string, providerId: string): Promise<boolean> {
  return (await run(samlProviderEntity.delete({ orgId, providerId }))) !== undefined;
}
