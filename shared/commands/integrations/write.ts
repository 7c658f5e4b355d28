import { nowIso, nowMs } from '../../clock.ts';
import { randomId, sha256Hex } from '../../ids.ts';
import { run, transact } from '../../db/writes.ts';
import { putBytesBlob } from '../../content/blobs.ts';
import { conflict } from '../../http/errors.ts';
import {
  installationEntity, installationLockEntity, integrationEntity, integrationEventEntity,
  type InstallationItem, type IntegrationEventItem, type IntegrationItem,
} from '../../db/entities/integration.ts';
import { spaceEntity } from '../../db/entities/space.ts';
import { siteEntity } from '../../db/entities/site.ts';
import { isExpired } from '../../policies/access.ts';
import { emitEvents, eventKey, newEvent } from '../../integrations/events.ts';
import { sealSecrets } from '../../integrations/secrets.ts';
import { enqueue } from '../../jobs/enqueue.ts';

/** Spaces (and sites) given a *_installation_setup event when an integration is installed. */
export const MAX_SETUP_EVENTS_PER_KIND = 100;

function hostnames(patterns: string[]): string[] {
  return patterns.flatMap((p) => {
    try {
      return [new URL(p.replace(/\*/g, 'x')).hostname.replace(/^x\./, '')];
    } catch {
      return [];
    }
  });
}

/**
 * What a publication sends, as the publish route validated it (publishBody in
 * functions/integrations/schemas.ts): the stored fields, plus the icon, preview images and
 * script to store as blobs, the owning organization and the secrets in the clear.
 */
export type IntegrationPublication = Pick<IntegrationItem,
  'runtime' | 'title' | 'description' | 'summary' | 'visibility' | 'target' | 'scopes' | 'categories'
  | 'contentSources' | 'externalLinks' | 'configurations' | 'contentSecurityPolicy'> & {
  /** Stored as given; each block's `urlUnfurl` patterns feed the catalog's domain filter. */
  blocks: { urlUnfurl?: string[] }[];
  icon?: string;
  previewImages: string[];
  script?: string;
  organization: string;
  secrets: Record<string, string>;
};

/**
 * Publishes (creates, version 1) or updates (version + 1) an integration. Icon, preview
 * images and script go to S3 blobs; secrets are kept as sha256 hashes and sealed for the
 * runtime (shared/integrations/secrets.ts). The version check makes concurrent publishes of
 * the same name fail with 409 instead of losing one. A new script sends every installation
 * an `installation_setup` event with `previous` (the installation as it was), so the new
 * version sets itself up.
 */
export async function publishIntegration(name: string, body: IntegrationPublication, existing: IntegrationItem | undefined): Promise<IntegrationItem> {
  const now = nowIso();
  const [iconBlob, scriptBlob, ...previewImageBlobs] = await Promise.all([
    body.icon !== undefined ? putBytesBlob(Buffer.from(body.icon, 'base64'), 'image/png') : Promise.resolve(undefined),
    body.script !== undefined ? putBytesBlob(Buffer.from(body.script, 'utf8'), 'application/javascript') : Promise.resolve(undefined),
    ...body.previewImages.map((img) => putBytesBlob(Buffer.from(img, 'base64'), 'image/png')),
  ]);
  const blocks = body.blocks;
  const createdAt = existing?.createdAt ?? now;
  const item: IntegrationItem = {
    name,
    version: (existing?.version ?? 0) + 1,
    runtime: body.runtime,
    title: body.title,
    description: body.description,
    ...(body.summary !== undefined ? { summary: body.summary } : {}),
    ...(iconBlob ? { iconBlob } : existing?.iconBlob ? { iconBlob: existing.iconBlob } : {}),
    previewImageBlobs: previewImageBlobs as string[],
    visibility: body.visibility,
    target: body.target,
    scopes: [...new Set(body.scopes)],
    categories: [...new Set(body.categories)],
    blocks,
    contentSources: body.contentSources,
    externalLinks: body.externalLinks,
    configurations: body.configurations,
    ...(scriptBlob ? { scriptBlob } : existing?.scriptBlob ? { scriptBlob: existing.scriptBlob } : {}),
    ...(body.contentSecurityPolicy !== undefined ? { contentSecurityPolicy: body.contentSecurityPolicy } : {}),
    secretHashes: Object.fromEntries(Object.entries(body.secrets).map(([k, v]) => [k, sha256Hex(v)])),
    ...(Object.keys(body.secrets).length ? { sealedSecrets: await sealSecrets(body.secrets, name, createdAt) } : {}),
    ownerOrgId: existing?.ownerOrgId ?? body.organization,
    searchText: `${name} ${body.title}`.toLowerCase(),
    blockDomains: [...new Set(blocks.flatMap((b: { urlUnfurl?: string[] }) => hostnames(b.urlUnfurl ?? [])))],
    hasBlocks: blocks.length > 0,
    hasContentSources: body.contentSources.length > 0,
    ...(existing?.devTunnelUrl ? { devTunnelUrl: existing.devTunnelUrl, devForwardAll: existing.devForwardAll ?? false } : {}),
    createdAt,
    updatedAt: now,
  };
  const write = existing
    ? integrationEntity.replace({ name }, item, (w) => w.eq('version', existing.version))
    : integrationEntity.create({ name }, item);
  await transact([write], () => conflict('The integration was published by another request; retry'));
  if (existing && scriptBlob && scriptBlob !== existing.scriptBlob) {
    const installations = await installationEntity.query.ofIntegration({ name }).all();
    await emitEvents(installations.map((installation) => newEvent(installation, {
      type: 'installation_setup', status: installation.status,
      previous: { status: installation.status, configuration: installation.configuration },
    })));
  }
  return item;
}

export async function setDevelopmentMode(item: IntegrationItem, tunnelUrl: string, all: boolean): Promise<void> {
  await run(integrationEntity.put({ name: item.name }, { ...item, devTunnelUrl: tunnelUrl, devForwardAll: all, updatedAt: nowIso() }));
}

/** Removes the integration with its installations and events. False when there was none. */
export async function unpublishIntegration(name: string): Promise<boolean> {
  const deleted = await run(integrationEntity.delete({ name }));
  const [installations, events] = await Promise.all([
    installationEntity.query.ofIntegration({ name }).all(),
    integrationEventEntity.query.ofIntegration({ name }).all(),
  ]);
  const writes = [
    ...installations.flatMap((i) => [installationEntity.delete({ name, installationId: i.id }), installationLockEntity.delete({ name, orgId: i.orgId })]),
    ...events.map((e) => integrationEventEntity.delete(eventKey(e))),
  ];
  for (let i = 0; i < writes.length; i += 20) await Promise.all(writes.slice(i, i + 20).map((w) => run<unknown>(w)));
  return deleted !== undefined;
}

/**
 * Installs into an organization: the installation, a per-org lock (one installation per
 * organization, 409 otherwise) and the `installation_setup` event in one transaction;
 * then the event is queued, with one `space_installation_setup` / `site_installation_setup`
 * per live space and site of the organization (the installation covers them all), at most
 * MAX_SETUP_EVENTS_PER_KIND of each.
 */
export async function installIntegration(integration: IntegrationItem, orgId: string): Promise<{ installation: InstallationItem; event: IntegrationEventItem }> {
  const ms = nowMs();
  const now = new Date(ms).toISOString();
  const installation: InstallationItem = {
    id: randomId(),
    integrationName: integration.name,
    orgId,
    status: 'active',
    space_selection: 'all',
    site_selection: 'all',
    configuration: {},
    externalIds: [],
    createdAt: now,
    updatedAt: now,
  };
  const event = newEvent(installation, { type: 'installation_setup', status: 'active' }, ms);
  await transact([
    integrationEntity.check({ name: integration.name }, (w) => w.exists()),
    installationLockEntity.create({ name: integration.name, orgId }, { installationId: installation.id }),
    installationEntity.put({ name: integration.name, installationId: installation.id }, installation),
    integrationEventEntity.put(eventKey(event), event),
  ], (index) => index === 0
    ? conflict('The integration was unpublished meanwhile')
    : conflict(`The integration is already installed in organization ${orgId}`));
  await enqueue({ kind: 'integration-event', integrationName: integration.name, eventId: event.id });
  const [spaces, sites] = await Promise.all([
    spaceEntity.query.byOrg({ orgId }).page({ limit: MAX_SETUP_EVENTS_PER_KIND }),
    siteEntity.query.byOrg({ orgId }).page({ limit: MAX_SETUP_EVENTS_PER_KIND }),
  ]);
  await emitEvents([
    ...spaces.items.filter((s) => !isExpired(s) && !s.deletedAt).map((space) => newEvent(installation, { type: 'space_installation_setup', spaceId: space.id, status: 'active' })),
    ...sites.items.map((site) => newEvent(installation, { type: 'site_installation_setup', siteId: site.id, status: 'active' })),
  ]);
  return { installation, event };
}
