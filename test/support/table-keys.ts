import { AsyncLocalStorage } from 'node:async_hooks';
import { db } from '../../shared/db/client.ts';
import { indexes, PK, type IndexName } from '../../shared/db/table.ts';

/**
 * What a function does to the table, as IAM sees it: for each DynamoDB request made inside
 * `recording` (in its async context), the IAM action of each item it names and that item's
 * partition key (the table's, or for a Query on an index, the index's). Recorded by a
 * middleware on the service's real client: the emulator still answers every request.
 */
export interface TouchedKey {
  /** IAM action: GetItem, BatchGetItem, Query, ConditionCheckItem, PutItem, UpdateItem, DeleteItem, BatchWriteItem, or the operation's own name (Scan...). */
  action: string;
  /** Where: the table, or the index a Query names. */
  resource: 'table' | IndexName;
  /** The leading key: undefined when the request names none (a Scan). */
  pk: string | undefined;
}

type Value = string | { S?: string } | undefined;
type Item = Record<string, Value>;
// Operation inputs are read loosely: each operation has its own shape.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Input = Record<string, any>;

const scope = new AsyncLocalStorage<TouchedKey[]>();
const watched = new WeakSet<object>();

/** A string attribute, in the document client's form or the marshalled one. */
const text = (value: Value): string | undefined => (typeof value === 'string' ? value : value?.S);
const pkOf = (item: Item | undefined) => text(item?.[PK]);

/** The partition key value a Query's key condition names (`#a = :b`, or the attribute's own name). */
function queriedPartition(input: Input, attribute: string): string | undefined {
  const names = Object.entries((input.ExpressionAttributeNames ?? {}) as Record<string, string>).filter(([, name]) => name === attribute).map(([alias]) => alias);
  for (const token of [...names, attribute]) {
    const escaped = token.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    const value = new RegExp(`(?:^|[\\s(])${escaped}\\s*=\\s*(:\\w+)`).exec(String(input.KeyConditionExpression ?? ''))?.[1];
    if (value) return text(input.ExpressionAttributeValues?.[value]);
  }
  return undefined;
}

/** The keys one request touches (command names as the SDK gives them: GetItemCommand...). */
function keysOf(command: string, input: Input): TouchedKey[] {
  const table = (action: string, item: Item | undefined): TouchedKey => ({ action, resource: 'table', pk: pkOf(item) });
  switch (command) {
    case 'GetItemCommand': return [table('GetItem', input.Key)];
    case 'PutItemCommand': return [table('PutItem', input.Item)];
    case 'UpdateItemCommand': return [table('UpdateItem', input.Key)];
    case 'DeleteItemCommand': return [table('DeleteItem', input.Key)];
    case 'BatchGetItemCommand':
      return Object.values(input.RequestItems as Record<string, { Keys: Item[] }>).flatMap((r) => r.Keys.map((key) => table('BatchGetItem', key)));
    case 'BatchWriteItemCommand':
      return Object.values(input.RequestItems as Record<string, { PutRequest?: { Item: Item }; DeleteRequest?: { Key: Item } }[]>)
        .flatMap((requests) => requests.map((r) => table('BatchWriteItem', r.PutRequest?.Item ?? r.DeleteRequest?.Key)));
    case 'TransactGetItemsCommand':
      return (input.TransactItems as { Get: { Key: Item } }[]).map((t) => table('GetItem', t.Get.Key));
    case 'TransactWriteItemsCommand':
      return (input.TransactItems as Input[]).map((t) => (t.Put ? table('PutItem', t.Put.Item) : t.Update ? table('UpdateItem', t.Update.Key)
        : t.Delete ? table('DeleteItem', t.Delete.Key) : table('ConditionCheckItem', t.ConditionCheck?.Key)));
    case 'QueryCommand': {
      const index = input.IndexName as IndexName | undefined;
      return [{ action: 'Query', resource: index ?? 'table', pk: queriedPartition(input, index ? indexes[index].pk : PK) }];
    }
    default:
      return [{ action: command.replace(/Command$/, ''), resource: 'table', pk: undefined }];
  }
}

/** The keys of the `recording` the caller runs in, if any (for other recorders of the same flows). */
export function currentRecording(): TouchedKey[] | undefined {
  return scope.getStore();
}

/**
 * Starts recording on the service's DynamoDB client (call after the test API started: it
 * builds the client). Requests made outside `recording` are not recorded.
 */
export function watchTableKeys(): void {
  const client = db();
  if (watched.has(client)) return;
  watched.add(client);
  // After the document client marshalled its input (initialize step): the low-level request.
  client.middlewareStack.add(
    (next, context) => async (args) => {
      scope.getStore()?.push(...keysOf(String(context.commandName), args.input as Input));
      return next(args);
    },
    { step: 'build', name: 'recordTableKeys' },
  );
}

/** Runs `fn`, adding to `keys` what every DynamoDB request made in its async context touches. */
export function recording<T>(keys: TouchedKey[], fn: () => T): T {
  return scope.run(keys, fn);
}

/** Whether an IAM StringLike pattern (`*` any run of characters, `?` one) matches `value`. */
export function matchesLike(pattern: string, value: string): boolean {
  const source = pattern.split('').map((c) => (c === '*' ? '.*' : c === '?' ? '.' : c.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))).join('');
  return new RegExp(`^${source}$`, 's').test(value);
}
