import { spaceEntity, SPACE_RETENTION_SECONDS, type SpaceItem } from '../../db/entities/space.ts';
import { nowEpochSeconds, nowIso } from '../../clock.ts';

/**
 * The write that moves a space to the trash: `deletedAt` and the TTL attribute set, the
 * space leaves the org and parent listings and enters the purge index. Conditional on
 * the space being unchanged since it was read.
 */
export function softDeleteSpaceWrite(space: SpaceItem) {
  const deleted: SpaceItem = {
    ...space,
    deletedAt: nowIso(),
    expiresAt: nowEpochSeconds() + SPACE_RETENTION_SECONDS,
    updatedAt: nowIso(),
  };
  return {
    item: deleted,
    write: spaceEntity.replace({ spaceId: space.id }, deleted, (w) => w.and(w.eq('updatedAt', space.updatedAt), w.lacks('deletedAt'))),
  };
}
