import type { TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import type { StoredItem } from './errors.ts';

export type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

/**
 * One declared write of an entity (create, put, replace, update, add, delete, check): a
 * description only. shared/db/writes.ts runs it (`run(write)`, or several with
 * `transact([...])`), so that a module which only reads (the reader's Lambda, granted no
 * write action) bundles no write command: declaring entities does not reach writes.ts.
 */
export interface Write<Result = void> {
  /** The TransactWriteItems entry this write becomes inside a transaction. */
  readonly transactItem: TransactItem;
  /** Create-if-absent writes fail with AlreadyExists instead of ConditionFailed. */
  readonly createOnly: boolean;
  /** The result of the single-item request from the record it returns. */
  readonly decode: (out: StoredItem | undefined) => Result;
}

export function declareWrite<Result>(transactItem: TransactItem, createOnly: boolean, decode: (out: StoredItem | undefined) => Result): Write<Result> {
  return { transactItem, createOnly, decode };
}
