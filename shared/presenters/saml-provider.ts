import type { SAMLProviderItem } from '../db/entities/saml-provider.ts';
import type { TeamItem } from '../db/entities/team.ts';
import type { Role } from '../http/schemas.ts';
import { config } from '../config.ts';
import { apiLocation } from './urls.ts';
import { presentTeam } from './team.ts';
import { providerStatus } from '../sso/providers.ts';
import type { SAMLProviderOutput } from './schemas/saml-provider.ts';

/**
 * Service-provider addresses of a provider, on the public API base (config.apiUrl), served
 * by functions/sso/service-provider.ts: the SP metadata at `entityID`, SP-initiated login
 * at `startURL`, the assertion consumer at `acsURL`.
 */
export function samlService(provider: Pick<SAMLProviderItem, 'id'>) {
  const base = `${config.apiUrl}/sso/saml/${provider.id}`;
  return { acsURL: `${base}/acs`, startURL: `${base}/start`, entityID: base };
}

/** SAMLProvider (spec 2.14); `defaultTeam` embedded when set and still present. */
export function presentSAMLProvider(provider: SAMLProviderItem, context: { role: Role | null; team?: TeamItem }): SAMLProviderOutput {
  return {
    object: 'saml-provider',
    id: provider.id,
    label: provider.label,
    // A pending provider lacks its identity provider's side: empty strings, as the fields are required.
    ssoURL: provider.ssoURL ?? '',
    entityID: provider.entityID ?? '',
    certificate: provider.certificate ?? '',
    ...(context.team ? { defaultTeam: presentTeam(context.team, { role: context.role }) } : {}),
    defaultRole: provider.defaultRole,
    createdAt: provider.createdAt,
    status: providerStatus(provider),
    service: samlService(provider),
    urls: { location: apiLocation(`/orgs/${provider.orgId}/saml/${provider.id}`) },
  };
}

/** SSO login option (spec 2.14). */
export function presentSSOLoginOption(provider: SAMLProviderItem) {
  return { id: provider.id, label: provider.label, startURL: samlService(provider).startURL };
}
