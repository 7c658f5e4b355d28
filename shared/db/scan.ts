import { ScanCommand, type ScanCommandOutput } from '@aws-sdk/lib-dynamodb';
import { db } from './client.ts';
import { config } from '../config.ts';
import { ENTITY_TYPE } from './table.ts';

/**
 * Every record of the given entity types, projected to `fields` (plus the entity type):
 * a paginated, strongly consistent Scan (a record written just before is seen). Only for
 * background jobs that must see the whole table (shared/content/blob-sweep.ts).
 */
export async function* scanTypes(types: string[], fields: string[]): AsyncGenerator<Record<string, unknown>> {
  const projected = [ENTITY_TYPE, ...new Set(fields.filter((f) => f !== ENTITY_TYPE))];
  let start: ScanCommandOutput['LastEvaluatedKey'];
  do {
    const page = await db().send(new ScanCommand({
      TableName: config.tableName,
      ConsistentRead: true,
      ProjectionExpression: projected.map((_, i) => `#f${i}`).join(', '),
      FilterExpression: `#f0 IN (${types.map((_, i) => `:t${i}`).join(', ')})`,
      ExpressionAttributeNames: Object.fromEntries(projected.map((f, i) => [`#f${i}`, f])),
      ExpressionAttributeValues: Object.fromEntries(types.map((t, i) => [`:t${i}`, t])),
      ExclusiveStartKey: start,
    }));
    yield* page.Items ?? [];
    start = page.LastEvaluatedKey;
  } while (start);
}
