import { keyString } from '../db/entity.ts';
import { batchGetRecords, getRecord, type StoredRecord } from '../db/operations.ts';
import type { Key } from '../db/table.ts';

/**
 * Per-request record cache. Everything a request needs that can be named up front is
 * fetched in one BatchGetItem; later reads of the same keys cost no round trip.
 */
export class RecordLoader {
  private readonly cache = new Map<string, StoredRecord | null>();

  /** Fetches every key not cached yet in one batch (one GetItem when one key is missing: cheaper to send and to answer). */
  async load(keys: Key[]): Promise<void> {
    const missing = keys.filter((k) => !this.cache.has(keyString(k)));
    if (missing.length === 0) return;
    if (missing.length === 1) {
      this.cache.set(keyString(missing[0]!), (await getRecord(missing[0]!)) ?? null);
      return;
    }
    const found = await batchGetRecords(missing);
    for (const k of missing) {
      const s = keyString(k);
      this.cache.set(s, found.get(s) ?? null);
    }
  }

  async get(key: Key): Promise<StoredRecord | undefined> {
    await this.load([key]);
    return this.peek(key);
  }

  /** Cached record (loaded before), or undefined. */
  peek(key: Key): StoredRecord | undefined {
    return this.cache.get(keyString(key)) ?? undefined;
  }

  /** Seeds a record the request already knows (an installation token's membership). */
  prime(key: Key, record: StoredRecord): void {
    this.cache.set(keyString(key), record);
  }

  /** Forget a record after this request changed it. */
  forget(key: Key): void {
    this.cache.delete(keyString(key));
  }
}
