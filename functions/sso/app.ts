import type { Context } from 'hono';
import { groupApp, operationRoutes, route } from '../../shared/http/route.ts';
import * as op from './operations.ts';
import { badRequest, notFound } from '../../shared/http/errors.ts';
import type { AppEnv } from '../../shared/http/env.ts';
import { policies } from '../../shared/policies/index.ts';
import { loadOrgAccess, type OrgAccess } from '../../shared/policies/access.ts';
import { organizationEntity } from '../../shared/db/entities/organization.ts';
import { teamEntity, type TeamItem } from '../../shared/db/entities/team.ts';
import { samlProviderEntity, type SAMLProviderItem } from '../../shared/db/entities/saml-provider.ts';
import { presentList } from '../../shared/presenters/list.ts';
import { presentSAMLProvider, presentSSOLoginOption } from '../../shared/presenters/saml-provider.ts';
import { createSAMLProvider } from '../../shared/commands/saml-providers/create.ts';
import { deleteSAMLProvider } from '../../shared/commands/saml-providers/delete.ts';
import { updateSAMLProvider } from '../../shared/commands/saml-providers/update.ts';
import { providerStatus } from '../../shared/sso/providers.ts';

/**
 * SSO (spec 4.15): the SAML providers of an organization (admin only, reads included:
 * certificates and IdP addresses are security configuration) and its SSO login options
 * (any authenticated caller: they are what a login page offers before membership).
 */
const routes = operationRoutes();

type Ctx = Context<AppEnv>;

/** Every SAML provider operation, reads included (certificates, IdP addresses), is the org admins'. */
async function adminAccess(c: Ctx, orgId: string): Promise<OrgAccess> {
  const access = await loadOrgAccess(c.var.scope, orgId);
  policies.organization.authorize(access, 'admin');
  return access;
}

/** The org's teams named by these providers (absent ones, e.g. deleted since, are left out). */
async function loadTeams(c: Ctx, orgId: string, teamIds: (string | undefined)[]): Promise<Map<string, TeamItem>> {
  const ids = [...new Set(teamIds.filter((t): t is string => t !== undefined))];
  const loader = c.get('loader');
  const keys = ids.map((teamId) => teamEntity.key({ orgId, teamId }));
  await loader.load(keys);
  const teams = new Map<string, TeamItem>();
  ids.forEach((teamId, i) => {
    const record = loader.peek(keys[i]!);
    if (record) teams.set(teamId, teamEntity.fromRecord(record));
  });
  return teams;
}

async function requireTeam(c: Ctx, orgId: string, teamId: string): Promise<TeamItem> {
  const team = (await loadTeams(c, orgId, [teamId])).get(teamId);
  if (!team) throw badRequest(`defaultTeam: no team ${teamId} in this organization`);
  return team;
}

async function present(c: Ctx, access: OrgAccess, provider: SAMLProviderItem, team?: TeamItem) {
  const resolved = team ?? (provider.defaultTeam ? (await loadTeams(c, provider.orgId, [provider.defaultTeam])).get(provider.defaultTeam) : undefined);
  return presentSAMLProvider(provider, { role: access.role, team: resolved });
}

route(routes, op.listSAMLProvidersInOrganizationById, async (c) => {
  const { organizationId } = c.req.valid('param');
  const { page, limit } = c.req.valid('query');
  const access = await adminAccess(c, organizationId);
  const result = await samlProviderEntity.query.inOrg({ orgId: organizationId }).page({ limit, cursor: page });
  const providers = result.items;
  const teams = await loadTeams(c, organizationId, providers.map((p) => p.defaultTeam));
  return c.json(presentList(
    providers.map((p) => presentSAMLProvider(p, { role: access.role, team: p.defaultTeam ? teams.get(p.defaultTeam) : undefined })),
    result.next,
  ));
});

route(routes, op.createOrganizationSAMLProvider, async (c) => {
  const { organizationId } = c.req.valid('param');
  const body = c.req.valid('json');
  const access = await adminAccess(c, organizationId);
  const team = body.defaultTeam !== undefined ? await requireTeam(c, organizationId, body.defaultTeam) : undefined;
  const provider = await createSAMLProvider(organizationId, body);
  const presented = await present(c, access, provider, team);
  c.header('Location', presented.urls.location);
  return c.json(presented, 201);
});

route(routes, op.getOrganizationSAMLProviderById, async (c) => {
  const { organizationId, samlProviderId } = c.req.valid('param');
  const access = await adminAccess(c, organizationId);
  const record = await c.get('loader').get(samlProviderEntity.key({ orgId: organizationId, providerId: samlProviderId }));
  if (!record) throw notFound(`No SAML provider found with id ${samlProviderId}`);
  return c.json(await present(c, access, samlProviderEntity.fromRecord(record)));
});

route(routes, op.deleteOrganizationSAMLProvider, async (c) => {
  const { organizationId, samlProviderId } = c.req.valid('param');
  await adminAccess(c, organizationId);
  const deleted = await deleteSAMLProvider(organizationId, samlProviderId);
  // 204: there was no such provider; 205: it was deleted (official interface).
  return c.body(null, deleted ? 205 : 204);
});

route(routes, op.updateOrganizationSAMLProvider, async (c) => {
  const { organizationId, samlProviderId } = c.req.valid('param');
  const changes = c.req.valid('json');
  const access = await adminAccess(c, organizationId);
  const team = typeof changes.defaultTeam === 'string' ? await requireTeam(c, organizationId, changes.defaultTeam) : undefined;
  const provider = await updateSAMLProvider(organizationId, samlProviderId, changes);
  return c.json(await present(c, access, provider, team));
});

route(routes, op.listSSOProviderLoginsInOrganization, async (c) => {
  const { organizationId } = c.req.valid('param');
  // Login options: any authenticated caller may see them (no membership needed), 404 for an unknown org.
  const org = await c.get('loader').get(organizationEntity.key({ orgId: organizationId }));
  if (!org) throw notFound(`No organization found with id ${organizationId}`);
  const providers = await samlProviderEntity.query.inOrg({ orgId: organizationId }).all();
  // A pending provider cannot sign anyone in yet: not offered.
  return c.json({ items: providers.filter((p) => providerStatus(p) === 'active').map((p) => presentSSOLoginOption(p)) });
});

export const app = groupApp(op.group, routes);
