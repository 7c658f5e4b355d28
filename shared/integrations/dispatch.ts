import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { db } from '../db/client.ts';
import { config } from '../config.ts';
import { nowIso } from '../clock.ts';
import { getRecord } from '../db/operations.ts';
import {
  eventCreatedAt, installationEntity, integrationEntity, integrationEventEntity, type IntegrationEventLog,
} from '../db/entities/integration.ts';
import { SIGNATURE_HEADER, signBody } from './signature.ts';

export const DISPATCH_TIMEOUT_MS = 10_000;

/**
 * Delivers one integration event (the `integration-events` worker). With a development
 * tunnel (and `all`, or an installation in the owning organization) the payload JSON is POSTed to the tunnel URL, signed with `x-dps-signature:
 * sha256=<hex HMAC-SHA256 of the body>` keyed by the integration's signing secret; the
 * HTTP status (or the network error) goes into the event's trace logs and the event ends
 * `success` (2xx) or `failed`. Without a tunnel the service has no runtime to run the
 * integration's script, so the event is marked delivered with a log line. Delivery is
 * attempted once: a failed delivery is recorded, not retried (the message is consumed).
 * An event already dispatched (redelivered message) is left alone.
 */
export async function dispatchIntegrationEvent(integrationName: string, eventId: string): Promise<void> {
  const createdAt = eventCreatedAt(eventId);
  if (!createdAt) return;
  const key = integrationEventEntity.key({ name: integrationName, createdAt, eventId });
  const [eventRecord, integrationRecord] = await Promise.all([getRecord(key, true), getRecord(integrationEntity.key({ name: integrationName }), true)]);
  if (!eventRecord) return; // unpublished meanwhile
  const event = integrationEventEntity.fromRecord(eventRecord);
  if (event.status !== 'pending') return;
  const logs: IntegrationEventLog[] = [...event.logs];
  const log = (message: string, level: IntegrationEventLog['level'] = 'debug') => logs.push({ message, timestamp: nowIso(), level });
  let status: 'success' | 'failed';
  const integration = integrationRecord ? integrationEntity.fromRecord(integrationRecord) : undefined;
  // Without `all`, only the owning organization's events go to the tunnel.
  const installationRecord = integration?.devTunnelUrl && !integration.devForwardAll
    ? await getRecord(installationEntity.key({ name: integrationName, installationId: event.installationId }), true)
    : undefined;
  const toTunnel = integration?.devTunnelUrl !== undefined
    && (integration.devForwardAll === true || installationRecord?.orgId === integration.ownerOrgId);
  if (!integration) {
    log('Integration no longer exists', 'error');
    status = 'failed';
  } else if (toTunnel && integration.devTunnelUrl) {
    const body = JSON.stringify(event.payload);
    try {
      const res = await fetch(integration.devTunnelUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json', [SIGNATURE_HEADER]: signBody(body, integration.signingSecret), 'x-dps-event-id': eventId },
        body,
        signal: AbortSignal.timeout(DISPATCH_TIMEOUT_MS),
      });
      await res.arrayBuffer().catch(() => undefined);
      status = res.ok ? 'success' : 'failed';
      log(`Delivered to development tunnel: HTTP ${res.status}`, res.ok ? 'debug' : 'error');
    } catch (error) {
      status = 'failed';
      log(`Delivery to development tunnel failed: ${(error as Error).name === 'TimeoutError' ? `timed out after ${DISPATCH_TIMEOUT_MS} ms` : (error as Error).message}`, 'error');
    }
  } else {
    status = 'success';
    log(integration.devTunnelUrl
      ? 'Development tunnel forwards only the owning organization\'s events (all: false); no runtime endpoint: event recorded as delivered'
      : 'No development tunnel and no runtime endpoint: event recorded as delivered');
  }
  await db().send(new PutCommand({
    TableName: config.tableName,
    Item: integrationEventEntity.toRecord({ name: integrationName, createdAt, eventId }, { ...event, status, logs }),
    ConditionExpression: 'attribute_exists(pk)',
  })).catch((error: Error) => {
    if (error.name !== 'ConditionalCheckFailedException') throw error;
  });
}
