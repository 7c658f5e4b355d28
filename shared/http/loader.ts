import { instantNow } from '../clock.ts';
import { keyString } from '../db/entity.ts';
import { batchGetRecords, getRecord, type StoredRecord } from '../db/operations.ts';
import type { Key } from '../db/table.ts';
import { cachedRecord, keepRecords } from './auth-cache.ts';

/**
 * Per-request record cache. Everything a request needs that can be named up front is
 * fetched in one BatchGetItem; later reads of the same keys cost no round trip.
 */
export class RecordLoader {
  private readonly cache = new Map<string, StoredRecord | null>();
  /** What the request's credential brings (prime, hide): kept when a command starts over. */
  private readonly seeds: Array<[Key, StoredRecord]> = [];
  private hidden?: (key: Key) => boolean;

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
    const startedAt = instantNow();
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

  /** Cached record (loaded before), or undefined; never a record the credential may not see. */
  peek(key: Key): StoredRecord | undefined {
    if (this.hidden?.(key)) return undefined;
    return this.cache.get(keyString(key)) ?? undefined;
  }

  /** Seeds a record the request's credential brings (an installation token's membership). */
  prime(key: Key, record: StoredRecord): void {
    this.seeds.push([key, record]);
    this.cache.set(keyString(key), record);
  }

  /** Records the credential may not see, whatever storage holds (shared/http/token-binding.ts). */
  hide(rule: (key: Key) => boolean): void {
    this.hidden = rule;
  }

  /**
   * A loader for a command that starts over after a conflict: nothing read is kept, what the
   * credential brings (primed and hidden records) is.
   */
  startOver(): RecordLoader {
    const next = new RecordLoader();
    for (const [key, record] of this.seeds) next.prime(key, record);
    if (this.hidden) next.hide(this.hidden);
    return next;
  }

  /** Forget a record after this request changed it. */
  forget(key: Key): void {
    this.cache.delete(keyString(key));
  }
}
