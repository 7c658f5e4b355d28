import { nowMs } from '../../clock.ts';
import { randomId } from '../../ids.ts';
import { transact } from '../../db/writes.ts';
import { conflict } from '../../http/errors.ts';
import { installationEntity, installationLockEntity, integrationEntity, integrationEventEntity, type InstallationItem, type IntegrationEventItem, type IntegrationItem } from '../../db/entities/integration.ts';
import { spaceEntity } from '../../db/entities/space.ts';
import { siteEntity } from '../../db/entities/site.ts';
import { isExpired } from '../../policies/access.ts';
import { emitEvents, eventKey, newEvent } from '../../integrations/events.ts';
import { enqueue } from '../../jobs/enqueue.ts';

/** Spaces (and sites) given a *_installation_setup event when an integration is installed. */
export const MAX_SETUP_EVENTS_PER_KIND = 100;

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
