import {
  BatchWriteCommand, DeleteCommand, PutCommand, TransactWriteCommand, UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { db } from './client.ts';
import { AlreadyExists, ConditionFailed, NotFound, TransactionConflict, type StoredItem } from './errors.ts';
import type { TransactItem, Write } from './write.ts';
import { config } from '../config.ts';
import { PK, SK, type Key } from './table.ts';
import { forgetRecords } from '../http/auth-cache.ts';

export type { TransactItem, Write } from './write.ts';

/**
 * Runs one declared write (shared/db/write.ts) as a single-item request; a failed
 * condition throws the typed error (AlreadyExists for a create, ConditionFailed with the
 * item as it was, NotFound when there was none).
 */
export async function run<Result>(write: Write<Result>): Promise<Result> {
  try {
    return write.decode(await single(write.transactItem));
  } catch (error) {
    throw storageError(error, write.createOnly);
  } finally {
    forgetWritten([write.transactItem]);
  }
}

/**
 * Every write of this process ends here: the authentication cache forgets what it wrote
 * (shared/http/auth-cache.ts), so a revocation or role change applies to the next request.
 * Failed writes too: a failed condition means the cached copy may be out of date.
 */
function forgetWritten(items: TransactItem[]): void {
  forgetRecords(items.map((item) => {
    const key = item.Put ? item.Put.Item : (item.Update ?? item.Delete ?? item.ConditionCheck)?.Key;
    return { pk: key?.[PK] as string, sk: key?.[SK] as string };
  }));
}

/** Runs a transaction entry as PutItem / UpdateItem (ALL_NEW) / DeleteItem (ALL_OLD). */
async function single(item: TransactItem): Promise<StoredItem | undefined> {
  if (item.Put) return (await db().send(new PutCommand({ ...item.Put, ReturnValuesOnConditionCheckFailure: 'ALL_OLD' }))).Attributes;
  if (item.Update) return (await db().send(new UpdateCommand({ ...item.Update, ReturnValues: 'ALL_NEW', ReturnValuesOnConditionCheckFailure: 'ALL_OLD' }))).Attributes;
  if (item.Delete) return (await db().send(new DeleteCommand({ ...item.Delete, ReturnValues: 'ALL_OLD', ReturnValuesOnConditionCheckFailure: 'ALL_OLD' }))).Attributes;
  throw new Error('A condition check only runs inside transact()');
}

/** The typed error for a failed single write or transaction (other errors pass through). */
function storageError(error: unknown, createOnly: boolean): unknown {
  if ((error as Error | undefined)?.name !== 'ConditionalCheckFailedException') return error;
  const item = oldItem((error as { Item?: StoredItem }).Item);
  if (createOnly) return new AlreadyExists(item);
  return item ? new ConditionFailed(item) : new NotFound(undefined);
}

/**
 * All-or-nothing write of up to 100 entries. A failed condition throws what
 * `onConditionFailed` makes of it (given the failed write's position and the typed error),
 * or the typed error itself (ConditionFailed, or AlreadyExists for a create, with `index`);
 * a conflict with a concurrent transaction throws TransactionConflict.
 */
export async function transact(
  writes: (Write<unknown> | TransactItem)[],
  onConditionFailed?: (index: number, error: ConditionFailed) => Error,
): Promise<void> {
  if (writes.length === 0) return;
  const entries = writes.map((w) => ('transactItem' in w ? w : undefined));
  const items = writes.map((w) => withOldItemOnFailure('transactItem' in w ? w.transactItem : w));
  try {
    await db().send(new TransactWriteCommand({ TransactItems: items }));
  } catch (error) {
    forgetWritten(items);
    const reasons = (error as { CancellationReasons?: { Code?: string; Item?: StoredItem }[] }).CancellationReasons;
    if ((error as Error).name === 'TransactionCanceledException' && reasons) {
      const index = reasons.findIndex((r) => r.Code === 'ConditionalCheckFailed');
      if (index >= 0) {
        // Inside a transaction a missing item is a ConditionFailed too (with no `item`).
        const Failure = entries[index]?.createOnly ? AlreadyExists : ConditionFailed;
        const typed = new Failure(oldItem(reasons[index]!.Item), index);
        throw onConditionFailed?.(index, typed) ?? typed;
      }
      if (reasons.some((r) => r.Code === 'TransactionConflict')) throw new TransactionConflict();
    }
    throw error;
  }
  forgetWritten(items);
}

/** Conditional entries return the old item on failure (ConditionFailed.item). */
function withOldItemOnFailure(item: TransactItem): TransactItem {
  const [kind, body] = Object.entries(item)[0] as [keyof TransactItem, { ConditionExpression?: string }];
  if (!body?.ConditionExpression) return item;
  return { [kind]: { ...body, ReturnValuesOnConditionCheckFailure: 'ALL_OLD' } } as TransactItem;
}

/** The old item of a failed condition arrives in the low-level format (the document client leaves it). */
function oldItem(item: StoredItem | undefined): StoredItem | undefined {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- AttributeValue map
  return item ? unmarshall(item as any) : undefined;
}

/** What purge() needs of a collection (shared/db/collection.ts). */
interface Partition<Args> {
  records(args: Args): Promise<StoredItem[]>;
  index?: string;
}

/**
 * Deletes every record of a collection's partition, of any type (BatchWriteItem by 25);
 * returns how many. Here rather than on the collection, so that reading one bundles no write.
 */
export async function purge<Args>(collection: Partition<Args>, args: Args): Promise<number> {
  if (collection.index) throw new Error('Only a table partition can be purged');
  const all = await collection.records(args);
  for (let i = 0; i < all.length; i += 25) {
    const batch = all.slice(i, i + 25);
    let pending = batch.map((r) => ({ DeleteRequest: { Key: { [PK]: r[PK], [SK]: r[SK] } } }));
    while (pending.length > 0) {
      const out = await db().send(new BatchWriteCommand({ RequestItems: { [config.tableName]: pending } }));
      pending = (out.UnprocessedItems?.[config.tableName] ?? []) as typeof pending;
    }
    forgetRecords(batch.map((r): Key => ({ pk: r[PK] as string, sk: r[SK] as string })));
  }
  return all.length;
}
