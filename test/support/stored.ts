import { queryAll, type StoredRecord } from '../../shared/db/operations.ts';
import type { Key } from '../../shared/db/table.ts';

/**
 * Stored effects the API does not show, read through the entities' own key declarations
 * (shared/db/entities), so that no test spells a storage key. Prefer an entity's named query
 * (`entity.query.x(...).all()`) or `entity.get(...)` where one exists; these two cover the rest.
 */

/**
 * Every record of `key`'s partition whose sort key starts as `key`'s does: pass an entity's key
 * with its last id empty, e.g. `storedLike(revisionEntity.key({ spaceId, revisionId: '' }))`.
 */
export function storedLike(key: Key): Promise<StoredRecord[]> {
  return queryAll({ partition: key.pk, prefix: key.sk });
}

/** Every record of `key`'s partition, of any type: what a purge must leave empty, or a secret must never reach. */
export function storedInPartition(key: Key): Promise<StoredRecord[]> {
  return queryAll({ partition: key.pk });
}
