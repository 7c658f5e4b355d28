import { randomId, sha256Hex } from '../ids.ts';
import { nowEpochSeconds, nowIso } from '../clock.ts';
import { INSTALLATION_TOKEN_SECRET_PREFIX, installationTokenEntity, type TokenItem } from '../db/entities/token.ts';
import { memberEntity, type MemberItem } from '../db/entities/member.ts';
import type { InstallationItem, IntegrationItem } from '../db/entities/integration.ts';
import type { Role } from '../http/schemas.ts';
import { maxRole } from '../policies/roles.ts';
import { checkTokenScope } from '../http/token-scopes.ts';
import type { Operation } from '../http/declare.ts';
import type { RecordLoader } from '../http/loader.ts';
import { run } from '../db/writes.ts';

/**
 * Short-lived API tokens for integration scripts. A token names its installation and the
 * integration's scopes; it authenticates as a synthetic member of the installation's
 * organization (never stored, so it is no one's member anywhere else and lists nowhere),
 * whose role is the least the scopes need; every operation then checks its scope
 * (shared/http/token-scopes.ts). An installation covers every space and site of its
 * organization (selection `all`), so the organization bounds what the token reaches.
 */
export const INSTALLATION_TOKEN_TTL_SECONDS = 60 * 60;

export type IntegrationGrant = NonNullable<TokenItem['integration']>;

import { installationUserId } from './installation-user.ts';
export { installationUserId };

/** Role needed by the write scopes; read scopes need `read`. */
const roleOfScope: Record<string, Role> = {
  'space:content:write': 'edit',
  'space:metadata:write': 'admin',
  'space:git:sync': 'admin',
  'site:adaptive:write': 'admin',
  'openapi:write': 'admin',
  'conversations:ingest': 'edit',
};

export function grantRole(grant: IntegrationGrant): Role {
  return grant.scopes.reduce<Role>((role, scope) => maxRole(role, roleOfScope[scope] ?? 'read') ?? role, 'read');
}

export async function mintInstallationToken(integration: IntegrationItem, installation: InstallationItem): Promise<string> {
  const token = `${INSTALLATION_TOKEN_SECRET_PREFIX}${randomId(40)}`;
  const hash = sha256Hex(token);
  const grant: IntegrationGrant = { name: integration.name, installationId: installation.id, orgId: installation.orgId, scopes: integration.scopes };
  await run(installationTokenEntity.put({ hash }, {
    hash,
    userId: installationUserId(integration.name, installation.id),
    label: `integration ${integration.name}`,
    createdAt: nowIso(),
    expiresAt: nowEpochSeconds() + INSTALLATION_TOKEN_TTL_SECONDS,
    integration: grant,
  }));
  return token;
}

/** The membership an installation token acts with, for the request's record loader. */
export function grantMembership(grant: IntegrationGrant, userId: string): { key: ReturnType<typeof memberEntity.key>; record: Record<string, unknown> } {
  const member: MemberItem = {
    orgId: grant.orgId, userId, role: grantRole(grant), joinedAt: nowIso(), sso: false, disabled: false, teams: 0, searchText: grant.name.toLowerCase(),
  };
  const key = memberEntity.key({ orgId: grant.orgId, userId });
  return { key, record: memberEntity.toRecord({ orgId: grant.orgId, userId }, member) };
}

/** Called by authenticate for an installation token: 403 without the operation's scope, else its membership is seeded. */
export function admitInstallationToken(operation: Operation | undefined, grant: IntegrationGrant, userId: string, loader: RecordLoader): void {
  checkTokenScope(operation, grant.scopes);
  const { key, record } = grantMembership(grant, userId);
  loader.prime(key, record);
}
