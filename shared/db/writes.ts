import {
  DeleteCommand, PutCommand, TransactWriteCommand, UpdateCommand,
  type TransactWriteCommandInput,
} from '@aws-sdk/lib-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { db } from './client.ts';
import { AlreadyExists, ConditionFailed, NotFound, TransactionConflict, type StoredItem } from './errors.ts';

export type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

/**
 * One declared write of an entity (create, put, replace, update, add, delete, check).
 * Run it alone with `go()`, or pass several to `transact()` to write them all or none.
 */
export interface Write<Result = void> {
  /** The TransactWriteItems entry this write becomes inside a transaction. */
  readonly transactItem: TransactItem;
  /** Create-if-absent writes fail with AlreadyExists instead of ConditionFailed. */
  readonly createOnly: boolean;
  go(): Promise<Result>;
}

/** Wraps a transaction entry as a Write; `go()` runs it as a single-item request. */
export function write<Result>(transactItem: TransactItem, createOnly: boolean, decode: (out: StoredItem | undefined) => Result): Write<Result> {
  return {
    transactItem,
    createOnly,
    async go() {
      try {
        return decode(await single(transactItem));
      } catch (error) {
        throw storageError(error, createOnly);
      }
    },
  };
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
