import { Hono } from 'hono';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { BatchGetCommand, DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';
import { config } from '../../shared/config.ts';
import { spaceEntity } from '../../shared/db/entities/space.ts';
import { createGroupApp } from '../../shared/http/group-app.ts';
import { operationGroup } from '../../shared/http/declare.ts';
import { loadSpaceAccess } from '../../shared/policies/access.ts';
import type { Key } from '../../shared/db/table.ts';

/** A plain document client (same options as shared/db/client.ts, without the round-trip counter). */
export function bareDocumentClient(): DynamoDBDocumentClient {
  return DynamoDBDocumentClient.from(new DynamoDBClient({ region: config.region }), {
    marshallOptions: { removeUndefinedValues: true, convertClassInstanceToMap: false },
  });
}

export async function bareGetItem(doc: DynamoDBDocumentClient, key: Key): Promise<Record<string, unknown> | undefined> {
  const out = await doc.send(new GetCommand({ TableName: config.tableName, Key: key }));
  return out.Item;
}

export async function bareBatchGet(doc: DynamoDBDocumentClient, keys: Key[]): Promise<number> {
  const out = await doc.send(new BatchGetCommand({ RequestItems: { [config.tableName]: { Keys: keys } } }));
  return out.Responses?.[config.tableName]?.length ?? 0;
}

/**
 * Throughput/latency baseline: a bare Hono app whose single route does one GetItem on
 * the space's key and returns the item as JSON. `/static` answers without DynamoDB
 * (the floor of HTTP server + client alone).
 */
export function createBareApp() {
  const doc = bareDocumentClient();
  const app = new Hono();
  app.get('/v1/spaces/:spaceId', async (c) => {
    const item = await bareGetItem(doc, spaceEntity.key({ spaceId: c.req.param('spaceId') }));
    if (!item) return c.json({ error: 'not found' }, 404);
    return c.json(item);
  });
  app.get('/static', (c) => c.json({ ok: true }));
  return app;
}

/**
 * Diagnostic routes built from the service's own group app (same middleware chain:
 * tracing, body limit, bearer authentication with prefetch, JSON body check):
 * - /v1/bench/auth-only: authentication only (no read when the token is in the instance cache);
 * - /v1/spaces/:spaceId/bench-access: authentication + loadSpaceAccess (the real GET's
 *   reads), answering a tiny JSON instead of the presented space.
 */
export function createDiagApp() {
  // The group app answers only declared paths (shared/http/path-params.ts): the two diagnostic
  // routes are declared in a bench-only group, never part of the catalogue.
  const group = operationGroup('spaces', '0');
  const declare = (path: string, operationId: string) => group.declare({
    method: 'GET', path, operationId, summary: 'Benchmark diagnostic.', inSpec: false, role: 'authenticated', responses: { 200: { description: 'ok' } },
  });
  const app = createGroupApp([declare('/bench/auth-only', 'benchAuthOnly'), declare('/spaces/{spaceId}/bench-access', 'benchAccess')]);
  app.get('/bench/auth-only', (c) => c.json({ ok: true, userId: c.get('caller').userId }));
  app.get('/spaces/:spaceId/bench-access', async (c) => {
    const { space, role } = await loadSpaceAccess(c.var.scope, c.req.param('spaceId'));
    return c.json({ id: space.id, role });
  });
  return app;
}
