import { nowMs } from '../clock.ts';
import { randomId } from '../ids.ts';
import { enqueue } from '../jobs/enqueue.ts';
import { logger } from '../observability/logger.ts';
import { installationEntity, integrationEntity, integrationEventEntity, type InstallationItem, type IntegrationEventItem } from '../db/entities/integration.ts';
import { run } from '../db/writes.ts';

/**
 * Integration events (spec 2.13; payloads as @gitbook/api's Event types): each is stored
 * `pending` with its payload and queued on the integration-events queue, whose worker
 * delivers it (dispatch.ts). Types this service emits:
 * installation_setup, space_installation_setup, site_installation_setup,
 * space_content_updated, space_gitsync_started, space_gitsync_completed, and the
 * request-time ones answered synchronously: fetch (public endpoints).
 */
export type EventPayload = { type: string } & Record<string, unknown>;

/** Event id: creation time (ms, base36, 9 chars) then 12 random characters. */
export function newEventId(ms = nowMs()): string {
  return ms.toString(36).padStart(9, '0') + randomId(12);
}

/** The stored event of `payload` for one installation (not written yet). */
export function newEvent(installation: Pick<InstallationItem, 'id' | 'integrationName'>, payload: EventPayload, ms = nowMs()): IntegrationEventItem {
  const eventId = newEventId(ms);
  const createdAt = new Date(ms).toISOString();
  return {
    id: eventId,
    integrationName: installation.integrationName,
    installationId: installation.id,
    createdAt,
    payload: { eventId, installationId: installation.id, ...payload },
    status: 'pending',
    logs: [{ message: 'Event created', timestamp: createdAt, level: 'debug' }],
    attempts: 0,
  };
}

export const eventKey = (event: Pick<IntegrationEventItem, 'integrationName' | 'createdAt' | 'id'>) => ({ name: event.integrationName, createdAt: event.createdAt, eventId: event.id });

/** Stores and queues events. */
export async function emitEvents(events: IntegrationEventItem[]): Promise<void> {
  for (const event of events) {
    await run(integrationEventEntity.create(eventKey(event), event));
    await enqueue({ kind: 'integration-event', integrationName: event.integrationName, eventId: event.id });
  }
}

/**
 * One event per installation in the organization whose integration can receive it (a
 * script or a development tunnel). Never fails the caller (a merge, an edit, a Git sync):
 * a lost notification is logged, the content change stands.
 */
export async function emitOrganizationEvent(orgId: string, payload: EventPayload): Promise<void> {
  try {
    const installations = await installationEntity.query.byOrg({ orgId }).all();
    if (installations.length === 0) return;
    const names = [...new Set(installations.map((i) => i.integrationName))];
    const integrations = new Map((await Promise.all(names.map((name) => integrationEntity.get({ name }))))
      .filter((i) => i !== undefined).map((i) => [i.name, i]));
    const receivers = installations.filter((i) => {
      const integration = integrations.get(i.integrationName);
      return integration && (integration.scriptBlob || integration.devTunnelUrl);
    });
    await emitEvents(receivers.map((installation) => newEvent(installation, payload)));
  } catch (error) {
    logger.error('integration event not emitted', { orgId, type: payload.type, error: error as Error });
  }
}

/** space_gitsync_started, once per sync (not per attempt): the revision the space had, no commit yet. */
export function gitSyncStarted(spaceId: string, revisionId: string | undefined): EventPayload {
  return { type: 'space_gitsync_started', spaceId, revisionId: revisionId ?? '', commitId: '' };
}

/** space_gitsync_completed of a finished Git sync operation (its commit and the revision it made or exported). */
export function gitSyncCompleted(spaceId: string, state: 'success' | 'failure', operation: { commit?: string; revision?: string } | undefined): EventPayload {
  return { type: 'space_gitsync_completed', spaceId, state, revisionId: operation?.revision ?? '', commitId: operation?.commit ?? '' };
}

/**
 * space_content_updated: sent by every path that moves a space's primary revision
 * (shared/content/primary-revision.ts), after its write committed — a merge, a template on
 * the primary content (the live edit), a Git import, a translation run's result.
 */
export function contentUpdated(spaceId: string, revisionId: string): EventPayload {
  return { type: 'space_content_updated', spaceId, revisionId, updatedBy: [] };
}
