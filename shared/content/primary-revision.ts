import { spaceEntity, type SpaceItem } from '../db/entities/space.ts';
import type { Write } from '../db/writes.ts';

/**
 * The one conditional write that makes `to` a space's primary revision, for a transaction
 * beside the revision record. Conditional on the space still existing and being live and on
 * its primary revision still being `from` (none when undefined), so a concurrent merge, import or template is
 * never overwritten; `unlockedOnly` also refuses locked spaces. `updatedAt` moves too, so a
 * concurrent whole-record space update fails rather than writing the old pointer back.
 */
export function movePrimaryRevision(input: {
  spaceId: string;
  from: string | undefined;
  to: string;
  now: string;
  unlockedOnly?: boolean;
  /** Further attributes to set (e.g. gitSync). */
  set?: Partial<SpaceItem>;
  /** Counters to change (e.g. changeRequestsOpen: -1). */
  add?: Partial<Record<'comments' | 'changeRequests' | 'changeRequestsOpen' | 'changeRequestsDraft', number>>;
}): Write<SpaceItem> {
  return spaceEntity.update({ spaceId: input.spaceId }, {
    set: { ...input.set, revision: input.to, updatedAt: input.now },
    add: input.add,
    if: (w) => w.and(
      w.lacks('deletedAt'),
      input.from ? w.eq('revision', input.from) : w.lacks('revision'),
      input.unlockedOnly && w.ne('editMode', 'locked'),
    ),
  });
}
