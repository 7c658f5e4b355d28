import { keyString } from '../db/entity.ts';
import { batchGetRecords, getRecord, type StoredRecord } from '../db/operations.ts';
import type { Key } from '../db/table.ts';
import { nowMs } from '../clock.ts';
import { cachedRecord, keepRecords } from './auth-cache.ts';

/**
 * Per-request record cache. Everything a request needs that can be named up front is
 * fetched in one BatchGetItem; later reads of the same keys cost no round trip.
 */
export class RecordLoader {
  private readonly cache = new Map<string, StoredRecord | null>();

  /**
   * Fetches every key not cached yet in one batch (one GetItem when one key is missing:
   * cheaper to send and to answer). `access` keys are what authentication and access checks
   * read (token, address counter, organization, membership, ancestor collections): served
   * from and kept in the instance's cache for a few seconds (auth-cache.ts); `keys` are read
   * fresh.
   */
  async load(keys: Key[], access: Key[] = []): Promise<void> {
    const missing = keys.filter((k) => !this.cache.has(keyString(k)));
    const fresh = new Set(missing.map(keyString));
    const fromStorage: Key[] = [];
    for (const k of access) {
      const s = keyString(k);
      if (this.cache.has(s) || fresh.has(s)) continue;
      const cached = cachedRecord(k);
      if (cached === undefined) fromStorage.push(k);
      else this.cache.set(s, cached);
    }
    missing.push(...fromStorage);
    if (missing.length === 0) return;
    const startedAt = nowMs();
    if (missing.length === 1) {
      this.cache.set(keyString(missing[0]!), (await getRecord(missing[0]!)) ?? null);
    } else {
      const found = await batchGetRecords(missing);
      for (const k of missing) {
        const s = keyString(k);
        this.cache.set(s, found.get(s) ?? null);
      }
    }
    if (fromStorage.length > 0) keepRecords(fromStorage, (k) => this.cache.get(keyString(k)) ?? null, startedAt);
  }

  /** The access records of an access check (see load), from the instance's cache when fresh. */
  loadAccess(keys: Key[]): Promise<void> {
    return this.load([], keys);
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
