import type { Context } from 'hono';
import { groupApp, operationRoutes, route } from '../../shared/http/route.ts';
import * as op from './operations.ts';
import { ApiError, forbidden, notFound } from '../../shared/http/errors.ts';
import type { AppEnv } from '../../shared/http/env.ts';
import type { Role } from '../../shared/http/schemas.ts';
import { policies } from '../../shared/policies/index.ts';
import { isActiveMember, loadOrgAccess } from '../../shared/policies/access.ts';
import { organizationEntity, type OrganizationItem } from '../../shared/db/entities/organization.ts';
import { memberEntity } from '../../shared/db/entities/member.ts';
import {
  eventCreatedAt, installationEntity, integrationEntity, integrationEventEntity, type IntegrationItem,
} from '../../shared/db/entities/integration.ts';
import type { SpaceItem } from '../../shared/db/entities/space.ts';
import type { SiteItem } from '../../shared/db/entities/site.ts';
import { isExpired } from '../../shared/policies/access.ts';
import { presentSpace } from '../../shared/presenters/space.ts';
import { presentSite } from '../../shared/presenters/site.ts';
import { listInstalledTargets } from '../../shared/integrations/targets.ts';
import { apiLocation } from '../../shared/presenters/urls.ts';
import { presentList } from '../../shared/presenters/list.ts';
import { presentInstallation, presentIntegration, presentIntegrationEvent } from '../../shared/presenters/integration.ts';
import { webhookSigningSecret } from '../../shared/integrations/signature.ts';
import { installIntegration } from '../../shared/commands/integrations/install.ts';
import { publishIntegration } from '../../shared/commands/integrations/publish.ts';
import { setDevelopmentMode } from '../../shared/commands/integrations/set-development-mode.ts';
import { unpublishIntegration } from '../../shared/commands/integrations/unpublish.ts';

/**
 * Integrations (spec 4.18). Reading the catalog needs any token; `private` integrations are
 * only visible to members of the owning organization. Publishing, updating, unpublishing,
 * development mode, and reading installations and events need the admin role in the
 * owning organization; installing needs the admin role in the target organization.
 */
const routes = operationRoutes();
type Ctx = Context<AppEnv>;

interface OwnerView { org: OrganizationItem; role: Role | null | undefined }

/** The caller's view of each owning organization (role undefined when not a member). */
async function ownerViews(c: Ctx, orgIds: string[]): Promise<Map<string, OwnerView>> {
  const loader = c.get('loader');
  const userId = c.get('caller').userId;
  const unique = [...new Set(orgIds)];
  await loader.load(unique.flatMap((orgId) => [organizationEntity.key({ orgId }), memberEntity.key({ orgId, userId })]));
  const views = new Map<string, OwnerView>();
  for (const orgId of unique) {
    const org = loader.peek(organizationEntity.key({ orgId }));
    if (!org) continue;
    const member = loader.peek(memberEntity.key({ orgId, userId }));
    const m = member ? memberEntity.fromRecord(member) : undefined;
    // Disabled members count as none (shared/policies/access.ts).
    views.set(orgId, { org: organizationEntity.fromRecord(org), role: isActiveMember(m) ? m.role : undefined });
  }
  return views;
}

const visibleTo = (item: IntegrationItem, view: OwnerView | undefined) => view !== undefined && (item.visibility !== 'private' || view.role !== undefined);

/** The integration as the caller may see it; 404 when absent or private to another organization. */
async function loadIntegration(c: Ctx, name: string): Promise<{ item: IntegrationItem; owner: OwnerView }> {
  const record = await c.get('loader').get(integrationEntity.key({ name }));
  const item = record ? integrationEntity.fromRecord(record) : undefined;
  const owner = item ? (await ownerViews(c, [item.ownerOrgId])).get(item.ownerOrgId) : undefined;
  if (!item || !owner || !visibleTo(item, owner)) throw notFound(`No integration found with name ${name}`);
  return { item, owner };
}

route(routes, op.listIntegrations, async (c) => {
  const q = c.req.valid('query');
  // Catalog: public integrations; with `owner` naming an organization the caller belongs
  // to, every integration of that organization.
  const ownerView = q.owner ? (await ownerViews(c, [q.owner])).get(q.owner) : undefined;
  const publicOnly = !ownerView || ownerView.role === undefined;
  const result = await integrationEntity.query.catalog({}, {
    where: (w) => w.and(
      q.search && w.contains('searchText', q.search.toLowerCase()),
      q.category && w.contains('categories', q.category),
      q.blockDomain && w.contains('blockDomains', q.blockDomain.toLowerCase()),
      q.blocks !== undefined && w.eq('hasBlocks', q.blocks),
      q.contentSources !== undefined && w.eq('hasContentSources', q.contentSources),
      q.owner && w.eq('ownerOrgId', q.owner),
      q.scope && w.contains('scopes', q.scope),
      q.target && w.or(w.eq('target', q.target), w.eq('target', 'all')),
      publicOnly && w.eq('visibility', 'public'),
    ),
  }).page({ limit: q.limit, cursor: q.page });
  const items = result.items;
  const views = await ownerViews(c, items.map((i) => i.ownerOrgId));
  const presented = items.flatMap((i) => {
    const view = views.get(i.ownerOrgId);
    return view ? [presentIntegration(i, view.org, view.role)] : [];
  });
  return c.json(presentList(presented, result.next));
});

route(routes, op.getIntegrationByName, async (c) => {
  const { item, owner } = await loadIntegration(c, c.req.valid('param').integrationName);
  const secret = owner.role === 'admin' ? await webhookSigningSecret(item) : undefined;
  return c.json(presentIntegration(item, owner.org, owner.role, secret));
});

route(routes, op.publishIntegration, async (c) => {
  const { integrationName } = c.req.valid('param');
  const body = c.req.valid('json');
  const loader = c.get('loader');
  const record = await loader.get(integrationEntity.key({ name: integrationName }));
  const existing = record ? integrationEntity.fromRecord(record) : undefined;
  let access;
  try {
    access = await loadOrgAccess(c.var.scope, body.organization);
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) throw notFound(`organization: no organization found with id ${body.organization}`);
    throw error;
  }
  policies.integration.authorize(access, 'admin');
  if (existing && existing.ownerOrgId !== body.organization) {
    // Another organization owns the name: updating is its admins' business only.
    throw forbidden(`The integration ${integrationName} is owned by another organization`);
  }
  const item = await publishIntegration(integrationName, body, existing);
  // 200 for a first publication too: the public interface documents no other success status.
  return c.json(presentIntegration(item, access.org, access.role, await webhookSigningSecret(item)));
});

route(routes, op.unpublishIntegration, async (c) => {
  const { integrationName } = c.req.valid('param');
  const record = await c.get('loader').get(integrationEntity.key({ name: integrationName }));
  if (!record) return c.body(null, 204);
  const item = integrationEntity.fromRecord(record);
  const owner = (await ownerViews(c, [item.ownerOrgId])).get(item.ownerOrgId);
  if (!owner || !visibleTo(item, owner)) return c.body(null, 204); // no existence leak
  policies.integration.authorize(owner, 'admin');
  const deleted = await unpublishIntegration(integrationName);
  return c.body(null, deleted ? 205 : 204);
});

route(routes, op.setIntegrationDevelopmentMode, async (c) => {
  const { item, owner } = await loadIntegration(c, c.req.valid('param').integrationName);
  policies.integration.authorize(owner, 'admin');
  const { tunnelUrl, all } = c.req.valid('json');
  await setDevelopmentMode(item, tunnelUrl, all);
  return c.body(null, 204);
});

route(routes, op.listIntegrationInstallations, async (c) => {
  const { item, owner } = await loadIntegration(c, c.req.valid('param').integrationName);
  policies.integration.authorize(owner, 'admin');
  const { page, limit, externalId } = c.req.valid('query');
  const result = await installationEntity.query.ofIntegration({ name: item.name }, {
    where: externalId ? (w) => w.contains('externalIds', externalId) : undefined,
  }).page({ limit, cursor: page });
  return c.json(presentList(result.items.map((i) => presentInstallation(i, item)), result.next));
});

route(routes, op.installIntegration, async (c) => {
  const { item } = await loadIntegration(c, c.req.valid('param').integrationName);
  const { organization } = c.req.valid('json');
  const access = await loadOrgAccess(c.var.scope, organization);
  policies.organization.authorize(access, 'installIntegration');
  const { installation } = await installIntegration(item, organization);
  const presented = presentInstallation(installation, item);
  c.header('Location', presented.urls.location);
  return c.json(presented, 201);
});

route(routes, op.listIntegrationEvents, async (c) => {
  const { item, owner } = await loadIntegration(c, c.req.valid('param').integrationName);
  policies.integration.authorize(owner, 'admin');
  const { page, limit } = c.req.valid('query');
  // Newest first.
  const result = await integrationEventEntity.query.ofIntegration({ name: item.name }, { forward: false }).page({ limit, cursor: page });
  return c.json(presentList(result.items.map((e) => presentIntegrationEvent(e)), result.next));
});

route(routes, op.getIntegrationEvent, async (c) => {
  const { integrationName, eventId } = c.req.valid('param');
  const { item, owner } = await loadIntegration(c, integrationName);
  policies.integration.authorize(owner, 'admin');
  const createdAt = eventCreatedAt(eventId);
  const record = createdAt ? await c.get('loader').get(integrationEventEntity.key({ name: item.name, createdAt, eventId })) : undefined;
  if (!record) throw notFound(`No event found with id ${eventId}`);
  const event = integrationEventEntity.fromRecord(record);
  return c.json({ event: presentIntegrationEvent(event), trace: { logs: event.logs } });
});

/**
 * Installations on spaces / sites. An installation reaches every live space (site) of its
 * organization (selection `all`); the integration sees them with the `read` role of an
 * installation, so `extended` objects carry read permissions.
 */
for (const [kind, declared] of [['spaces', op.listIntegrationSpaceInstallations], ['sites', op.listIntegrationSiteInstallations]] as const) {
  route(routes, declared, async (c) => {
    const { item, owner } = await loadIntegration(c, c.req.valid('param').integrationName);
    policies.integration.authorize(owner, 'admin');
    const { page, limit, externalId, extended } = c.req.valid('query');
    const result = await listInstalledTargets(item.name, kind === 'spaces' ? 'SPACES' : 'SITES', {
      limit, page, externalId,
      keep: kind === 'spaces' ? (target) => !isExpired(target as SpaceItem) : undefined,
    });
    const orgs = extended ? await ownerViews(c, result.entries.map((e) => e.installation.orgId)) : undefined;
    const items = result.entries.map(({ installation, target }) => {
      const base = {
        integration: item.name,
        installation: installation.id,
        status: installation.status,
        configuration: {},
        externalIds: installation.externalIds,
      };
      const installationPath = `/integrations/${item.name}/installations/${installation.id}`;
      if (kind === 'spaces') {
        const space = target as SpaceItem;
        const org = orgs?.get(installation.orgId)?.org;
        return {
          ...base,
          urls: publicUrls(`${installationPath}/spaces/${space.id}`, `/integrations/${item.name}/public/spaces/${space.id}`),
          space: org ? presentSpace(space, { role: 'read', org }) : space.id,
        };
      }
      const site = target as SiteItem;
      const org = orgs?.get(installation.orgId)?.org;
      return {
        ...base,
        urls: publicUrls(`${installationPath}/sites/${site.id}`, `/integrations/${item.name}/public/sites/${site.id}`),
        site: org ? presentSite(site, org, 'read') : site.id,
      };
    });
    return c.json(presentList(items, result.next));
  });
}

/** `urls` of an installation on a space or site: no separate content origin, so both public endpoints match. */
function publicUrls(location: string, publicPath: string) {
  const publicEndpoint = apiLocation(publicPath);
  return { location: apiLocation(location), publicEndpoint, publicContentEndpoint: publicEndpoint };
}

export const app = groupApp(op.group, routes);
