/**
 * Integrations (spec 2.13, 4.18): the integration, its installations and its events share
 * the integration's partition `INTEGRATION#<name>`.
 */
import { defineEntity } from '../entity.ts';

export interface IntegrationItem {
  name: string;
  version: number;
  /** As published (`v1` by default, `v2` from `@gitbook/cli`): both run in the same workerd runtime. */
  runtime: 'v1' | 'v2';
  title: string;
  description: string;
  summary?: string;
  /** S3 blob hashes (blobs/<sha256>) of the icon and preview images sent base64. */
  iconBlob?: string;
  previewImageBlobs: string[];
  visibility: string;
  target: string;
  scopes: string[];
  categories: string[];
  blocks: unknown[];
  contentSources: unknown[];
  externalLinks: unknown[];
  configurations: Record<string, unknown>;
  /** S3 blob hash of the script. */
  scriptBlob?: string;
  contentSecurityPolicy?: unknown;
  /** Secret names to sha256 hashes of their values: never returned, never readable back. */
  secretHashes: Record<string, string>;
  /** The secrets' values sealed for the runtime (shared/integrations/secrets.ts): AES-GCM, never returned. */
  sealedSecrets?: string;
  ownerOrgId: string;
  /** Filter helpers: lower-cased `name title`, hostnames of blocks' urlUnfurl, has-flags. */
  searchText: string;
  blockDomains: string[];
  hasBlocks: boolean;
  hasContentSources: boolean;
  devTunnelUrl?: string;
  devForwardAll?: boolean;
  createdAt: string;
  updatedAt: string;
}

/**
 * The partition of an integration and of what belongs to it (installations and their locks,
 * events, block renders): INTEGRATION#<name>. The prefix is also the integration runtime's IAM
 * scope (infra/constructs/access.ts).
 */
export const INTEGRATION_KEY_PREFIX = 'INTEGRATION#';
export const integrationPartition = (name: string) => `${INTEGRATION_KEY_PREFIX}${name}`;
/** gsi1: an organization's installations (the runtime queries it for published-site scripts). */
export const orgInstallationsPartition = (orgId: string) => `ORG#${orgId}#INSTALLATIONS`;

/** INTEGRATION#<name> / INTEGRATION; gsi1 INTEGRATIONS / <name>: the catalog ordered by name. */
export const integrationEntity = defineEntity<IntegrationItem>()({
  type: 'integration',
  key: ({ name }: { name: string }) => ({ pk: integrationPartition(name), sk: 'INTEGRATION' }),
  indexes: {
    catalog: { index: 'gsi1', pk: (_: object) => 'INTEGRATIONS', sk: (item) => item.name },
  },
});

export interface InstallationItem {
  id: string;
  integrationName: string;
  orgId: string;
  status: 'active';
  space_selection: 'all' | 'selected';
  site_selection: 'all' | 'selected';
  configuration: Record<string, unknown>;
  externalIds: string[];
  createdAt: string;
  updatedAt: string;
}

/** INTEGRATION#<name> / INSTALLATION#<id>; gsi1 ORG#<org>#INSTALLATIONS / <name>#<id>. */
export const installationEntity = defineEntity<InstallationItem>()({
  type: 'integration-installation',
  key: ({ name, installationId }: { name: string; installationId: string }) => ({ pk: integrationPartition(name), sk: `INSTALLATION#${installationId}` }),
  indexes: {
    byOrg: { index: 'gsi1', pk: (a: { orgId: string }) => orgInstallationsPartition(a.orgId), sk: (item) => `${item.integrationName}#${item.id}` },
  },
  partitions: {
    ofIntegration: (a: { name: string }) => ({ pk: integrationPartition(a.name), prefix: 'INSTALLATION#' }),
  },
});

/** INTEGRATION#<name> / INSTALLED#<org>: at most one installation per organization. */
export const installationLockKey = (name: string, orgId: string) => ({ pk: integrationPartition(name), sk: `INSTALLED#${orgId}` });
export const installationLockEntity = defineEntity<{ installationId: string }>()({
  type: 'integration-installation-lock',
  key: ({ name, orgId }: { name: string; orgId: string }) => installationLockKey(name, orgId),
});

export interface IntegrationEventLog {
  message: string;
  timestamp: string;
  level: 'debug' | 'info' | 'warn' | 'error';
}

export interface IntegrationEventItem {
  id: string;
  integrationName: string;
  installationId: string;
  createdAt: string;
  payload: Record<string, unknown>;
  status: 'pending' | 'success' | 'failed';
  logs: IntegrationEventLog[];
  /** Delivery attempts made so far (shared/integrations/dispatch.ts). */
  attempts?: number;
}

/**
 * Event ids start with the creation time (ms, base36, 9 chars), so the key
 * INTEGRATION#<name> / EVENT#<createdAt>#<id> is rebuilt from the id alone.
 */
export function eventCreatedAt(eventId: string): string | undefined {
  const ms = parseInt(eventId.slice(0, 9), 36);
  if (!/^[0-9a-z]{9}/.test(eventId) || !Number.isFinite(ms)) return undefined;
  const date = new Date(ms);
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
}

export const integrationEventEntity = defineEntity<IntegrationEventItem>()({
  type: 'integration-event',
  key: ({ name, createdAt, eventId }: { name: string; createdAt: string; eventId: string }) => ({ pk: integrationPartition(name), sk: `EVENT#${createdAt}#${eventId}` }),
  partitions: {
    ofIntegration: (a: { name: string }) => ({ pk: integrationPartition(a.name), prefix: 'EVENT#' }),
  },
});
