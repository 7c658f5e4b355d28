import { config } from '../config.ts';
import { instantNow, longerElapsedSince, monotonicMs, type Instant } from '../clock.ts';
import { keyString } from '../db/entity.ts';
import type { StoredRecord } from '../db/operations.ts';
import type { Key } from '../db/table.ts';

/**
 * What authentication reads — the token, the client address's count of failed attempts, the
 * organization, the caller's membership, ancestor collections: never the resource a request
 * is about — kept per instance for `config.authCacheMs` (AUTH_CACHE_SECONDS, 5 s), so a warm
 * `GET /spaces/{id}` reads only the space, as a bare GetItem would (issue 17).
 *
 * Revocation window: every write this instance runs (shared/db/writes.ts) forgets the
 * records it touches at once, so in one instance a revocation, role change or disabled
 * membership applies to the next request. Another instance keeps its copy for the window
 * at most. What is checked against the clock (a token's expiry) is checked on every request
 * against the cached record, never cached as "valid".
 *
 * Windows are counted on two clocks, the time of day and a monotonic one, and end by whichever
 * saw more time pass: a wall clock stepping back (an NTP correction) cannot lengthen the
 * revocation window, nor can a monotonic clock that stood still while the instance was frozen
 * between invocations.
 */

/** Records kept at once (least recently stored first out). */
const MAX_ENTRIES = 10_000;
/**
 * After a write, reads of its key are not kept for this long: a read right after a write may
 * be served by a replica that has not seen it yet (DynamoDB's eventually consistent reads).
 */
const SETTLE_MS = 1000;

interface Entry {
  /** null: the record does not exist. */
  record: StoredRecord | null;
  keptAt: Instant;
  /** Served while less than this has passed since keptAt. */
  windowMs: number;
}
const entries = new Map<string, Entry>();
/**
 * Keys this instance wrote in the last SETTLE_MS, with when on the monotonic clock (oldest
 * first). Replica lag is real time, which that clock measures while the instance runs (frozen,
 * it stands still, and a write stays recent longer: the safe side). The time of day would not
 * do here: stepped back, it would put a write in the future and hold every later one in this
 * map, unpruned and uncached, for as long as the step.
 */
const recentWrites = new Map<string, number>();

/** The cached record (null: known absent), or undefined when not cached or too old. */
export function cachedRecord(key: Key): StoredRecord | null | undefined {
  const entry = entries.get(keyString(key));
  if (!entry || longerElapsedSince(entry.keptAt) >= entry.windowMs) return undefined;
  return entry.record;
}

/** Keeps records read from storage by a read that started at `readStartedAt` (instantNow()). */
export function keepRecords(keys: Key[], record: (key: Key) => StoredRecord | null, readStartedAt: Instant): void {
  const windowMs = config.authCacheMs;
  // A slow read may have crossed a write older than what recentWrites remembers.
  if (windowMs === 0 || longerElapsedSince(readStartedAt) >= SETTLE_MS) return;
  pruneRecentWrites(monotonicMs());
  const keptAt = instantNow();
  for (const key of keys) {
    const k = keyString(key);
    // Written here since the read started, or too recently for every replica: keep nothing.
    if (recentWrites.has(k)) continue;
    entries.delete(k);
    entries.set(k, { record: record(key), keptAt, windowMs });
    if (entries.size > MAX_ENTRIES) entries.delete(entries.keys().next().value!);
  }
}

/** Called with the keys of every write this instance runs, once it ran (shared/db/writes.ts). */
export function forgetRecords(keys: Key[]): void {
  const now = monotonicMs();
  pruneRecentWrites(now);
  for (const key of keys) {
    const k = keyString(key);
    entries.delete(k);
    recentWrites.delete(k);
    recentWrites.set(k, now);
  }
}

/**
 * Forgets everything kept, as a new instance would start: for tests, whose files share a
 * process (test/support/file-state.ts) and move the clock.
 */
export function forgetAllRecords(): void {
  entries.clear();
  recentWrites.clear();
}

/** Forgets the writes older than SETTLE_MS at `now` (monotonicMs()). */
function pruneRecentWrites(now: number): void {
  for (const [k, at] of recentWrites) {
    if (now - at < SETTLE_MS) break;
    recentWrites.delete(k);
  }
}
