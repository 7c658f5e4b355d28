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

/** ORG#<org> / SAMLPROVIDER#<id>: an org's providers are one Query (sk begins_with SAMLPROVIDER#). */
export const samlProviderEntity = defineEntity<SAMLProviderItem, { orgId: string; providerId: string }>({
  type: 'saml-provider',
  key: ({ orgId, providerId }) => ({ pk: `ORG#${orgId}`, sk: `SAMLPROVIDER#${providerId}` }),
});

export const SAML_PROVIDER_PREFIX = 'SAMLPROVIDER#';
