/**
 * Typed storage errors. The data layer never speaks HTTP: shared/http/errors.ts maps
 * these to statuses in one place, and commands catch them where a failed condition means
 * something more specific (a 404, a field error).
 */
export type StoredItem = Record<string, unknown>;

/** A write's condition did not hold. `item` is the record as it was (absent when there was none). */
export class ConditionFailed extends Error {
  readonly item: StoredItem | undefined;
  /** Position of the failed write in a transaction. */
  readonly index?: number;

  constructor(item: StoredItem | undefined, index?: number) {
    super('A write condition failed: the item was changed by another request');
    this.item = item;
    this.index = index;
    this.name = 'ConditionFailed';
  }
}

/** A create-if-absent found the item already there. */
export class AlreadyExists extends ConditionFailed {
  override name = 'AlreadyExists';
}

/** A conditional write (update, replace, delete) found no item at all. */
export class NotFound extends ConditionFailed {
  override name = 'NotFound';
}

/** DynamoDB cancelled a transaction because another one touched the same item meanwhile. */
export class TransactionConflict extends Error {
  constructor() {
    super('A concurrent transaction touched the same item');
    this.name = 'TransactionConflict';
  }
}

/** Storage errors a fresh read and a second attempt can resolve (shared/commands/retry.ts). */
export function isStorageConflict(error: unknown): boolean {
  return (error instanceof ConditionFailed && !(error instanceof NotFound)) || error instanceof TransactionConflict;
}
