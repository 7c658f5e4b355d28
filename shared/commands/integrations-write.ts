import { DeleteCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { db } from '../db/client.ts';
import { config } from '../config.ts';
import { nowIso, nowMs } from '../clock.ts';
import { randomId, sha256Hex } from '../ids.ts';
import { queryAll, transact } from '../db/operations.ts';
import { putBytesBlob } from '../content/blobs.ts';
import { enqueue } from '../jobs/enqueue.ts';
import { conflict } from '../http/errors.ts';
import {
  installationEntity, installationLockKey, integrationEntity, integrationEventEntity,
  type InstallationItem, type IntegrationEventItem, type IntegrationItem,
} from '../db/entities/integration.ts';
import type { PublishBody } from '../../functions/integrations/schemas.ts';

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
 * Publishes (creates, version 1) or updates (version + 1) an integration. Icon, preview
 * images and script go to S3 blobs; secrets are kept as sha256 hashes only. The version
 * check makes concurrent publishes of the same name fail with 409 instead of losing one.
 */
export async function publishIntegration(name: string, body: PublishBody, existing: IntegrationItem | undefined): Promise<IntegrationItem> {
  const now = nowIso();
  const [iconBlob, scriptBlob, ...previewImageBlobs] = await Promise.all([
    body.icon !== undefined ? putBytesBlob(Buffer.from(body.icon, 'base64'), 'image/png') : Promise.resolve(undefined),
    body.script !== undefined ? putBytesBlob(Buffer.from(body.script, 'utf8'), 'application/javascript') : Promise.resolve(undefined),
    ...body.previewImages.map((img) => putBytesBlob(Buffer.from(img, 'base64'), 'image/png')),
  ]);
  const blocks = body.blocks;
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
    ownerOrgId: existing?.ownerOrgId ?? body.organization,
    searchText: `${name} ${body.title}`.toLowerCase(),
    blockDomains: [...new Set(blocks.flatMap((b) => hostnames(b.urlUnfurl ?? [])))],
    hasBlocks: blocks.length > 0,
    hasContentSources: body.contentSources.length > 0,
    ...(existing?.devTunnelUrl ? { devTunnelUrl: existing.devTunnelUrl, devForwardAll: existing.devForwardAll ?? false } : {}),
    createdAt: existing?.createdAt ?? now,
    updatedAt: now,
  };
  await transact([{
    Put: {
      TableName: config.tableName,
      Item: integrationEntity.toRecord({ name }, item),
      ConditionExpression: existing ? 'version = :v' : 'attribute_not_exists(pk)',
      ...(existing ? { ExpressionAttributeValues: { ':v': existing.version } } : {}),
    },
  }], () => conflict('The integration was published by another request; retry'));
  return item;
}

export async function setDevelopmentMode(item: IntegrationItem, tunnelUrl: string, all: boolean): Promise<void> {
  await db().send(new PutCommand({
    TableName: config.tableName,
    Item: integrationEntity.toRecord({ name: item.name }, { ...item, devTunnelUrl: tunnelUrl, devForwardAll: all, updatedAt: nowIso() }),
  }));
}

/** Removes the integration with its installations and events. False when there was none. */
export async function unpublishIntegration(name: string): Promise<boolean> {
  const key = integrationEntity.key({ name });
  const out = await db().send(new DeleteCommand({ TableName: config.tableName, Key: key, ReturnValues: 'ALL_OLD' }));
  const records = await queryAll({ partition: key.pk });
  for (let i = 0; i < records.length; i += 20) {
    await Promise.all(records.slice(i, i + 20).map((r) => db().send(new DeleteCommand({
      TableName: config.tableName, Key: { pk: r.pk, sk: r.sk },
    }))));
  }
  return out.Attributes !== undefined;
}

/** Event id: creation time (ms, base36, 9 chars) then 12 random characters. */
function newEventId(ms: number): string {
  return ms.toString(36).padStart(9, '0') + randomId(12);
}

/**
 * Installs into an organization: the installation, a per-org lock (one installation per
 * organization, 409 otherwise) and the `installation_setup` event in one transaction,
 * then the event is queued for dispatch.
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
  const eventId = newEventId(ms);
  const event: IntegrationEventItem = {
    id: eventId,
    integrationName: integration.name,
    installationId: installation.id,
    createdAt: now,
    payload: { eventId, type: 'installation_setup', installationId: installation.id, status: 'active' },
    status: 'pending',
    logs: [{ message: 'Event created', timestamp: now, level: 'debug' }],
  };
  await transact([
    { ConditionCheck: { TableName: config.tableName, Key: integrationEntity.key({ name: integration.name }), ConditionExpression: 'attribute_exists(pk)' } },
    { Put: { TableName: config.tableName, Item: { ...installationLockKey(integration.name, orgId), installationId: installation.id }, ConditionExpression: 'attribute_not_exists(pk)' } },
    { Put: { TableName: config.tableName, Item: installationEntity.toRecord({ name: integration.name, installationId: installation.id }, installation) } },
    { Put: { TableName: config.tableName, Item: integrationEventEntity.toRecord({ name: integration.name, createdAt: now, eventId }, event) } },
  ], (index) => index === 0
    ? conflict('The integration was unpublished meanwhile')
    : conflict(`The integration is already installed in organization ${orgId}`));
  await enqueue({ kind: 'integration-event', integrationName: integration.name, eventId });
  return { installation, event };
}
