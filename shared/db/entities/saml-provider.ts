/**
 * SAML providers of an organization (spec 4.15), in the organization's partition.
 */
import { defineEntity } from '../entity.ts';
import type { Role } from '../../http/schemas.ts';

const SAML_PROVIDER_PREFIX = 'SAMLPROVIDER#';

export interface SAMLProviderItem {
  id: string;
  orgId: string;
  label: string;
  /** The identity provider's side; a provider lacking any of the three is `pending` (shared/sso/providers.ts). */
  entityID?: string;
  /** The PEM of the one X.509 certificate the admin pasted (shared/sso/certificate.ts). */
  certificate?: string;
  ssoURL?: string;
  /** Team id of the org new SSO members join, if any. */
  defaultTeam?: string;
  defaultRole: Role | null;
  createdAt: string;
  updatedAt: string;
}

/**
 * ORG#<org> / SAMLPROVIDER#<id>: an org's providers are one Query (sk begins_with SAMLPROVIDER#).
 * gsi1 SAMLPROVIDER#<id>: the service-provider endpoints (/sso/saml/<id>/...) find a provider by id alone.
 */
export const samlProviderEntity = defineEntity<SAMLProviderItem>()({
  type: 'saml-provider',
  key: ({ orgId, providerId }: { orgId: string; providerId: string }) => ({ pk: `ORG#${orgId}`, sk: `${SAML_PROVIDER_PREFIX}${providerId}` }),
  partitions: {
    inOrg: (a: { orgId: string }) => ({ pk: `ORG#${a.orgId}`, prefix: SAML_PROVIDER_PREFIX }),
  },
  indexes: {
    byId: { index: 'gsi1', pk: (a: { id: string }) => samlProviderIdPartition(a.id), sk: () => 'SAMLPROVIDER' },
  },
});

/** gsi1 partition of a provider looked up by its id. */
function samlProviderIdPartition(providerId: string): string {
  return `SAMLPROVIDER#${providerId}`;
}

