import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { db } from '../db/client.ts';
import { config } from '../config.ts';
import { nowIso } from '../clock.ts';
import { getRecord } from '../db/operations.ts';
import { egressFetch } from '../net/egress.ts';
import {
  eventCreatedAt, installationEntity, integrationEntity, integrationEventEntity, type IntegrationEventLog,
} from '../db/entities/integration.ts';
import { webhookHeaders, webhookSigningSecret } from './signature.ts';

export const DISPATCH_TIMEOUT_MS = 10_000;

/**
 * Delivers one integration event (the `integration-events` worker). With a development
 * tunnel (and `all`, or an installation in the owning organization) the payload JSON is POSTed to the tunnel URL, signed per
 * the Standard Webhooks specification with the integration's signing secret (signature.ts); the
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
    // The real time, not the service clock (tests move that): receivers check it against theirs.
    const signed = webhookHeaders(await webhookSigningSecret(integration), eventId, body, new Date());
    try {
      // Through the egress guard: checked, pinned address; no redirects; the answer is not read.
      const res = await egressFetch({
        url: integration.devTunnelUrl, label: 'tunnelUrl', timeoutMs: DISPATCH_TIMEOUT_MS, maxBytes: 64 * 1024, maxRedirects: 0,
        method: 'POST',
        headers: { 'content-type': 'application/json', ...signed },
        body,
      });
      res.cancel();
      const ok = res.status >= 200 && res.status < 300;
      status = ok ? 'success' : 'failed';
      log(`Delivered to development tunnel: HTTP ${res.status}`, ok ? 'debug' : 'error');
    } catch (error) {
      status = 'failed';
      log(`Delivery to development tunnel failed: ${(error as Error).message}`, 'error');
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
