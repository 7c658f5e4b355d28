import type { GroupName } from './declare.ts';
import type { Operation } from './declare.ts';
import { forbidden } from './errors.ts';

/**
 * The scope an integration's token needs for each declared operation, named as the public
 * interface names them (@gitbook/api's IntegrationScope and APIIntegrationScope, listed in `integrationScopes`; test/integration-runtime.test.ts compares them). Derived
 * here, in one place: by the operation's group and whether it reads (GET, searches) or
 * writes, then the few operations that differ. `open`: any installation token may call it
 * (the identity of the caller and its organization, the integration catalog); no entry:
 * integration tokens may not call it at all (members, teams, SSO, translations, ...).
 * User tokens carry no scopes and are not checked here.
 */
export const integrationScopes = [
  // IntegrationScope
  'space:content:read', 'space:content:write', 'space:metadata:read', 'space:metadata:write', 'space:git:sync',
  'page:feedback:read', 'site:metadata:read', 'site:views:read', 'site:script:inject', 'site:script:cookies',
  'site:visitor:auth', 'site:visitor:claims', 'site:adaptive:read', 'site:adaptive:write', 'conversations:ingest',
  'openapi:read', 'openapi:write',
  // APIIntegrationScope
  'integration:read', 'integration:update', 'integration:installation:read', 'integration:installation:update',
] as const;
export type TokenScope = (typeof integrationScopes)[number] | 'open';

type Access = { read?: TokenScope; write?: TokenScope };

const content: Access = { read: 'space:content:read', write: 'space:content:write' };

const byGroup: Record<GroupName, Access> = {
  spaces: { read: 'space:metadata:read', write: 'space:metadata:write' },
  collections: { read: 'space:metadata:read' },
  content,
  'change-requests': content,
  comments: content,
  git: { read: 'space:git:sync', write: 'space:git:sync' },
  openapi: { read: 'openapi:read', write: 'openapi:write' },
  sites: { read: 'site:metadata:read' },
  conversations: { write: 'conversations:ingest' },
  integrations: { read: 'open' },
  organizations: {},
  members: {},
  teams: {},
  sso: {},
  translations: {},
};

const byOperationId: Record<string, TokenScope | null> = {
  getOrganizationById: 'open',
  listOrganizationsForAuthenticatedUser: 'open',
  getAuthenticatedUser: 'open',
  searchOrganizationContent: 'space:content:read',
  getSiteAdaptiveSchema: 'site:adaptive:read',
  updateSiteAdaptiveSchema: 'site:adaptive:write',
  listIntegrationInstallations: 'integration:installation:read',
  listIntegrationSpaceInstallations: 'integration:installation:read',
  listIntegrationSiteInstallations: 'integration:installation:read',
  listIntegrationEvents: 'integration:read',
  getIntegrationEvent: 'integration:read',
};

/** POST operations that only read (searches, exports). */
const readsByPost = (op: Operation) => /\/search$|\/pdf$/.test(op.path);

function derive(op: Operation): TokenScope | undefined {
  if (op.operationId in byOperationId) return byOperationId[op.operationId] ?? undefined;
  const access = byGroup[op.group];
  return op.method === 'GET' || readsByPost(op) ? access.read : access.write;
}

/** The scope `operation` needs from an integration token; undefined: closed to them. */
export const requiredScope = (operation: Operation): TokenScope | undefined => derive(operation);

/** 403 unless an integration token with `scopes` may call `operation`. */
export function checkTokenScope(operation: Operation | undefined, scopes: readonly string[]): void {
  if (!operation) return; // unknown route: answered 404 later
  const scope = requiredScope(operation);
  if (scope === 'open') return;
  if (!scope) throw forbidden(`${operation.operationId} is not available to integration tokens`);
  if (!scopes.includes(scope)) throw forbidden(`${operation.operationId} needs the integration scope ${scope}`);
}
