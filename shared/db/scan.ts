import { ScanCommand, type ScanCommandOutput } from '@aws-sdk/lib-dynamodb';
import { db } from './client.ts';
import { config } from '../config.ts';
import { ENTITY_TYPE } from './table.ts';

/** Where a Scan continues (its LastEvaluatedKey): a plain object of key attributes, storable as is. */
export type ScanPosition = Record<string, unknown>;

/**
 * One page of every record of the given entity types, projected to `fields` (plus the entity
 * type): a strongly consistent Scan (a record written just before is seen) of at most `limit`
 * records read (before the type filter), from `after`; `next` is absent after the last page.
 * A job that stops between pages keeps `next` to resume. Only for background jobs that must
 * see the whole table (shared/content/blob-sweep.ts).
 */
export async function scanTypesPage(types: string[], fields: string[], { after, limit }: { after?: ScanPosition; limit?: number }): Promise<{ items: Record<string, unknown>[]; next?: ScanPosition }> {
  const projected = [ENTITY_TYPE, ...new Set(fields.filter((f) => f !== ENTITY_TYPE))];
  const page: ScanCommandOutput = await db().send(new ScanCommand({
    TableName: config.tableName,
    ConsistentRead: true,
    ProjectionExpression: projected.map((_, i) => `#f${i}`).join(', '),
    FilterExpression: `#f0 IN (${types.map((_, i) => `:t${i}`).join(', ')})`,
    ExpressionAttributeNames: Object.fromEntries(projected.map((f, i) => [`#f${i}`, f])),
    ExpressionAttributeValues: Object.fromEntries(types.map((t, i) => [`:t${i}`, t])),
    ExclusiveStartKey: after,
    Limit: limit,
  }));
  return { items: page.Items ?? [], ...(page.LastEvaluatedKey ? { next: page.LastEvaluatedKey } : {}) };
}
