import { collectionEntity, type CollectionItem } from '../../db/entities/collection.ts';
import { transact, type Write } from '../../db/writes.ts';
import { conflict } from '../../http/errors.ts';
import { descendants } from '../content/tree.ts';
import { softDeleteSpaceWrite } from '../spaces/delete.ts';

/**
 * Deletes a collection with its nested collections; the spaces inside go to the trash
 * (restorable for 7 days, to the organization's root). Up to 100 records change
 * atomically; larger trees are written in chunks of 100. Each collection goes only if
 * unchanged since read: a space or collection placed into it meanwhile moved its
 * `updatedAt` (placedUnder in ../content/move.ts) and would be left under a deleted parent.
 */
export async function deleteCollectionTree(collection: CollectionItem): Promise<void> {
  const below = await descendants(collection.orgId, collection.id);
  const writes: Write<unknown>[] = [deleteIfUnchanged(collection)];
  for (const node of below) {
    writes.push(node.type === 'collection' ? deleteIfUnchanged(node.item) : softDeleteSpaceWrite(node.item).write);
  }
  for (let i = 0; i < writes.length; i += 100) {
    await transact(writes.slice(i, i + 100), () => conflict('The collection was changed by another request; retry'));
  }
}

function deleteIfUnchanged(collection: CollectionItem): Write<unknown> {
  return collectionEntity.delete({ collectionId: collection.id }, (w) => w.eq('updatedAt', collection.updatedAt));
}
