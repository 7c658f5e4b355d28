import { installationEntity, installationLockEntity, integrationEntity, type InstallationItem, type IntegrationItem } from '../db/entities/integration.ts';

export interface BlockIntegration {
  integration: IntegrationItem & { scriptBlob: string };
  installation: InstallationItem;
}

/**
 * Where an integration block of a space renders from (docs/decisions.md): the integration's
 * installation in the space's organization, active and reaching its spaces (`space_selection`
 * `all`), as GitBook's render looks the integration up by the document's space. A site
 * installation alone does not render a space's blocks. Undefined when the integration is not
 * published with a script or not installed there.
 */
export async function blockIntegration(orgId: string, name: string): Promise<BlockIntegration | undefined> {
  const [integration, lock] = await Promise.all([integrationEntity.get({ name }), installationLockEntity.get({ name, orgId })]);
  if (!integration?.scriptBlob || !lock) return undefined;
  const installation = await installationEntity.get({ name, installationId: lock.installationId });
  if (!installation || installation.status !== 'active' || installation.space_selection !== 'all') return undefined;
  return { integration: { ...integration, scriptBlob: integration.scriptBlob }, installation };
}
