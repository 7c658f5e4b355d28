import { BatchGetCommand, GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { db } from './client.ts';
import { config } from '../config.ts';
import { keyString } from './entity.ts';
import { indexes, PK, SK, type IndexName, type Key } from './table.ts';
import { loadCursorKey, openCursor, sealCursor } from '../http/cursor.ts';

export type StoredRecord = Record<string, unknown>;

export async function getRecord(key: Key, consistent = false): Promise<StoredRecord | undefined> {
  const out = await db().send(new GetCommand({ TableName: config.tableName, Key: key, ConsistentRead: consistent }));
  return out.Item;
}

/** BatchGetItem for any number of keys (chunks of 100, unprocessed keys retried). */
export async function batchGetRecords(keys: Key[]): Promise<Map<string, StoredRecord>> {
  const found = new Map<string, StoredRecord>();
  const unique = [...new Map(keys.map((k) => [keyString(k), k])).values()];
  for (let i = 0; i < unique.length; i += 100) {
    let pending: Record<string, unknown>[] | undefined = unique.slice(i, i + 100).map((k) => ({ [PK]: k.pk, [SK]: k.sk }));
    for (let attempt = 0; pending && pending.length > 0; attempt++) {
      if (attempt > 0) await new Promise((r) => setTimeout(r, Math.min(1000, 20 * 2 ** attempt)));
      const out = await db().send(new BatchGetCommand({ RequestItems: { [config.tableName]: { Keys: pending } } }));
      for (const item of out.Responses?.[config.tableName] ?? []) {
        found.set(keyString({ pk: item[PK] as string, sk: item[SK] as string }), item);
      }
      pending = out.UnprocessedKeys?.[config.tableName]?.Keys as Record<string, unknown>[] | undefined;
    }
  }
  return found;
}

export interface QueryOptions {
  index?: IndexName;
  partition: string;
  /** Sort key prefix (begins_with). */
  prefix?: string;
  /** Descending sort key order when false. */
  forward?: boolean;
  limit: number;
  cursor?: string;
  filter?: { expression: string; names?: Record<string, string>; values?: Record<string, unknown> };
}

export interface QueryPage {
  records: StoredRecord[];
  /** Opaque cursor of the next page, absent on the last page. */
  next?: string;
}

/**
 * One page of a Query. With a filter, DynamoDB may return fewer items than `limit`
 * per call, so this keeps reading until the page is full or the partition ends.
 */
export async function queryPage(options: QueryOptions): Promise<QueryPage> {
  const attrs = options.index ? indexes[options.index] : { name: undefined, pk: PK, sk: SK };
  const keyAttributes = options.index ? [PK, SK, attrs.pk, attrs.sk] : [PK, SK];
  await loadCursorKey();
  // A cursor is only accepted for the query that produced it (shared/http/cursor.ts): its
  // partition, key prefix and filter (a `status=open` cursor does not page `status=draft`).
  const filterScope = options.filter ? `:${JSON.stringify([options.filter.expression, options.filter.values])}` : '';
  const scope = `query:${options.index ?? 'table'}:${options.partition}:${options.prefix ?? ''}${filterScope}`;
  const startKey = options.cursor ? openCursor(options.cursor, scope, isStartKey(keyAttributes, attrs.pk, options.partition)) : undefined;
  const { records, nextKey } = await queryFrom(options, startKey);
  return nextKey ? { records, next: sealCursor(scope, nextKey) } : { records };
}

/** Every record of a query (internal use: purges, moves). No cursor is sealed: functions without the cursor key (the integration runtime) read lists too. */
export async function queryAll(options: Omit<QueryOptions, 'limit' | 'cursor'>): Promise<StoredRecord[]> {
  const all: StoredRecord[] = [];
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await queryFrom({ ...options, limit: 1000 }, startKey);
    all.push(...page.records);
    startKey = page.nextKey;
  } while (startKey);
  return all;
}

/** Up to `limit` records from `startKey`, and the key the next page starts after (absent on the last page). */
async function queryFrom(options: Omit<QueryOptions, 'cursor'>, startKey: Record<string, unknown> | undefined): Promise<{ records: StoredRecord[]; nextKey?: Record<string, unknown> }> {
  const attrs = options.index ? indexes[options.index] : { name: undefined, pk: PK, sk: SK };
  const names: Record<string, string> = { '#p': attrs.pk, ...options.filter?.names };
  const values: Record<string, unknown> = { ':p': options.partition, ...options.filter?.values };
  let condition = '#p = :p';
  if (options.prefix !== undefined) {
    names['#s'] = attrs.sk;
    values[':s'] = options.prefix;
    condition += ' AND begins_with(#s, :s)';
  }
  const keyAttributes = options.index ? [PK, SK, attrs.pk, attrs.sk] : [PK, SK];
  const records: StoredRecord[] = [];
  let lastKey: Record<string, unknown> | undefined;
  let exclusiveStart = startKey;
  do {
    const out = await db().send(new QueryCommand({
      TableName: config.tableName,
      IndexName: attrs.name,
      KeyConditionExpression: condition,
      FilterExpression: options.filter?.expression,
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: values,
      ScanIndexForward: options.forward ?? true,
      Limit: options.limit - records.length + (options.filter ? 0 : 1),
      ExclusiveStartKey: exclusiveStart,
    }));
    for (const item of out.Items ?? []) {
      if (records.length === options.limit) {
        // One item beyond the page exists: the page ends at the previous item.
        return { records, nextKey: lastKey! };
      }
      records.push(item);
      lastKey = pick(item, keyAttributes);
    }
    exclusiveStart = out.LastEvaluatedKey;
    if (records.length === options.limit && exclusiveStart) {
      return { records, nextKey: lastKey! };
    }
  } while (exclusiveStart);
  return { records };
}

function pick(item: StoredRecord, attributes: string[]): Record<string, unknown> {
  return Object.fromEntries(attributes.filter((a) => a in item).map((a) => [a, item[a]]));
}

/** The shape of a start key of this query (checked after the cursor's tag). */
function isStartKey(attributes: string[], partitionAttr: string, partition: string) {
  return (key: unknown): key is Record<string, unknown> => typeof key === 'object' && key !== null && !Array.isArray(key)
    && Object.keys(key).length === attributes.length
    && attributes.every((a) => typeof (key as Record<string, unknown>)[a] === 'string')
    && (key as Record<string, unknown>)[partitionAttr] === partition;
}


export const tableName = () => config.tableName;
