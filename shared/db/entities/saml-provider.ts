/**
 * SAML providers of an organization (spec 4.15), in the organization's partition.
 */
import { defineEntity } from '../entity.ts';
import type { Role } from '../../http/schemas.ts';

export interface SAMLProviderItem {
  id: string;
  orgId: string;
  label: string;
  entityID: string;
  /** PEM text as given (checked to parse as an X.509 certificate). */
  certificate: string;
  ssoURL: string;
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
export const samlProviderEntity = defineEntity<SAMLProviderItem, { orgId: string; providerId: string }>({
  type: 'saml-provider',
  key: ({ orgId, providerId }) => ({ pk: `ORG#${orgId}`, sk: `SAMLPROVIDER#${providerId}` }),
  indexes: (p) => ({ gsi1: { pk: samlProviderIdPartition(p.id), sk: 'SAMLPROVIDER' } }),
});

/** gsi1 partition of a provider looked up by its id. */
export function samlProviderIdPartition(providerId: string): string {
  return `SAMLPROVIDER#${providerId}`;
}

export const SAML_PROVIDER_PREFIX = 'SAMLPROVIDER#';
