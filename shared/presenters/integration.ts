import type { IntegrationEventItem, IntegrationItem, InstallationItem } from '../db/entities/integration.ts';
import type { OrganizationItem } from '../db/entities/organization.ts';
import type { Role } from '../http/schemas.ts';
import { presentOrganization } from './organization.ts';
import { apiLocation, appLocation } from './urls.ts';
import type { IntegrationOutput } from './schemas/integration.ts';
import type { InstallationOutput } from './schemas/installation.ts';
import type { IntegrationEventOutput } from './schemas/integration-event.ts';
import { policies } from '../policies/index.ts';

/**
 * Integration (spec 2.13). `owner` is the publishing organization as the caller sees it;
 * `permissions.admin` is true for its admins. Secrets, the script and the dev tunnel are never
 * shown. `signingSecrets.integration` (beyond the spec; named as in @gitbook/api's
 * IntegrationEnvironment) is the Standard Webhooks secret event deliveries are signed with
 * (shared/integrations/signature.ts): given only for the owning organization's admins.
 * The service serves no separate content origin: `publicContentEndpoint` is `publicEndpoint`.
 */
export function presentIntegration(
  item: IntegrationItem, owner: OrganizationItem, ownerRole: Role | null | undefined,
  signingSecret?: string,
): IntegrationOutput {
  const path = `/integrations/${item.name}`;
  const publicEndpoint = apiLocation(`${path}/public`);
  return {
    object: 'integration' as const,
    name: item.name,
    version: item.version,
    title: item.title,
    description: item.description,
    ...(item.summary !== undefined ? { summary: item.summary } : {}),
    previewImages: item.previewImageBlobs.map((hash) => appLocation(`${path}/assets/${hash}`)),
    target: item.target,
    verified: false,
    visibility: item.visibility,
    scopes: item.scopes,
    categories: item.categories,
    // Stored as validated by functions/integrations/schemas.ts publishBody.
    blocks: item.blocks as IntegrationOutput['blocks'],
    contentSources: item.contentSources as IntegrationOutput['contentSources'],
    configurations: item.configurations as IntegrationOutput['configurations'],
    externalLinks: item.externalLinks as IntegrationOutput['externalLinks'],
    owner: presentOrganization(owner, { role: ownerRole }),
    urls: {
      location: apiLocation(path),
      ...(item.iconBlob ? { icon: appLocation(`${path}/assets/${item.iconBlob}`) } : {}),
      app: appLocation(path),
      assets: appLocation(`${path}/assets/`),
      publicEndpoint,
      publicContentEndpoint: publicEndpoint,
    },
    permissions: policies.integration.permissions({ role: ownerRole }),
    ...(item.contentSecurityPolicy !== undefined ? { contentSecurityPolicy: item.contentSecurityPolicy as IntegrationOutput['contentSecurityPolicy'] } : {}),
    ...(signingSecret !== undefined && ownerRole === 'admin' ? { signingSecrets: { integration: signingSecret } } : {}),
  };
}

/** Installation (spec 2.13); `target` is the organization it was installed into. */
export function presentInstallation(item: InstallationItem, integration: Pick<IntegrationItem, 'name'>): InstallationOutput {
  const path = `/integrations/${integration.name}/installations/${item.id}`;
  const publicEndpoint = apiLocation(`/integrations/${integration.name}/public/installations/${item.id}`);
  return {
    object: 'integration-installation',
    id: item.id,
    integration: integration.name,
    status: item.status,
    space_selection: item.space_selection,
    site_selection: item.site_selection,
    spaces: 0,
    configuration: item.configuration,
    createdAt: item.createdAt,
    updatedAt: item.updatedAt,
    urls: {
      location: apiLocation(path),
      app: appLocation(`/orgs/${item.orgId}/integrations/${integration.name}`),
      publicEndpoint,
      publicContentEndpoint: publicEndpoint,
    },
    externalIds: item.externalIds,
    target: { organization: item.orgId },
  };
}

/** Integration event (spec 2.13); `status` is pending until the worker dispatched it. */
export function presentIntegrationEvent(item: IntegrationEventItem): IntegrationEventOutput {
  return {
    id: item.id,
    integrationId: item.integrationName,
    installationId: item.installationId,
    createdAt: item.createdAt,
    payload: item.payload as IntegrationEventOutput['payload'],
    status: item.status,
  };
}
