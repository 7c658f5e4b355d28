import { spaceEntity, type SpaceItem } from '../../db/entities/space.ts';
import { collectionEntity, type CollectionItem } from '../../db/entities/collection.ts';
import { transact, type Write } from '../../db/writes.ts';
import { conflict } from '../../http/errors.ts';
import { TransactionConflict } from '../../db/errors.ts';
import { retryOnConflict } from '../retry.ts';
import { nowIso } from '../../clock.ts';
import { descendants, type TreeNode } from './tree.ts';
import { visibilityAt } from '../spaces/create.ts';
import { moveChangeRequestsToOrganization } from '../change-requests/transfer.ts';

type Node = { type: 'space'; item: SpaceItem } | { type: 'collection'; item: CollectionItem };

/** Replaces a stored space or collection, failing if another request changed it since it was read. */
function putIfUnchanged(node: Node, previousUpdatedAt: string): Write<unknown> {
  return node.type === 'space'
    ? spaceEntity.replace({ spaceId: node.item.id }, node.item, (w) => w.eq('updatedAt', previousUpdatedAt))
    : collectionEntity.replace({ collectionId: node.item.id }, node.item, (w) => w.eq('updatedAt', previousUpdatedAt));
}

/**
 * Moves a space or collection to a new parent collection (the root when none) and position,
 * and/or organization. For a collection, every descendant gets its new ancestor path (and
 * organization) too. Up to 100 records change atomically; a larger subtree is written in
 * chunks of 100, each conditional on the record being unchanged. The first chunk also holds
 * `placedUnder` of the new parent as it was read.
 */
export async function relocate(
  node: Node,
  target: { orgId: string; parent: CollectionItem | undefined; position: string },
): Promise<Node> {
  const now = nowIso();
  const previous = node.item.updatedAt;
  const { parent } = target;
  const moved = {
    ...node.item,
    orgId: target.orgId,
    parent: parent?.id,
    ancestors: parent ? [...parent.ancestors, parent.id] : [],
    position: target.position,
    updatedAt: now,
  } as Node['item'];
  if (!parent) delete moved.parent;
  if (node.type === 'space') (moved as SpaceItem).visibility = visibilityAt(node.item.visibility, parent?.id);
  const root = { type: node.type, item: moved } as Node;
  const writes = [putIfUnchanged(root, previous), ...(parent ? [placedUnder(parent, now)] : [])];
  const spaces = node.type === 'space' ? [node.item.id] : [];
  if (node.type === 'collection') {
    const below = await descendants(node.item.orgId, node.item.id);
    for (const child of below) writes.push(putIfUnchanged(rebase(child, root.item as CollectionItem, now), child.item.updatedAt));
    spaces.push(...below.filter((child) => child.type === 'space').map((child) => child.item.id));
  }
  for (let i = 0; i < writes.length; i += 100) await transactAsRead(writes.slice(i, i + 100));
  // Into another organization: the change requests of every space moved follow it.
  if (target.orgId !== node.item.orgId) {
    for (const spaceId of spaces) await moveChangeRequestsToOrganization(spaceId, target.orgId);
  }
  return root;
}

/**
 * What a node placed under `parent` (moved or created there) writes beside itself: the parent
 * must still exist where it was read (its ancestors, which the node copies), and its
 * `updatedAt` moves. A concurrent move of that collection is conditional on its `updatedAt`
 * and rewrites only the descendants it read, so one of the two fails (409) instead of leaving
 * the node with stale ancestors, or two collections each other's parent.
 */
export function placedUnder(parent: CollectionItem, now: string): Write<unknown> {
  return collectionEntity.update({ collectionId: parent.id }, {
    set: { updatedAt: now },
    if: (w) => w.and(w.exists(), w.eq('orgId', parent.orgId), w.eq('ancestors', parent.ancestors)),
  });
}

/**
 * Writes records prepared from what was read. A failed condition (something changed since)
 * is 409; a TransactionConflict (another transaction on one of these records in flight, such
 * as siblings placed under one parent at once) sends the same writes again after a pause.
 */
export async function transactAsRead(writes: Write<unknown>[]): Promise<void> {
  await retryOnConflict(() => transact(writes, () => conflict('The content was changed by another request; retry')),
    { retryable: (error) => error instanceof TransactionConflict });
}

/** A descendant of a moved collection, with its ancestors re-rooted under the collection's new path. */
function rebase(child: TreeNode, movedRoot: CollectionItem, now: string): Node {
  const item = child.item as SpaceItem & CollectionItem;
  const below = item.ancestors.slice(item.ancestors.indexOf(movedRoot.id) + 1);
  const updated = { ...item, orgId: movedRoot.orgId, ancestors: [...movedRoot.ancestors, movedRoot.id, ...below], updatedAt: now };
  return child.type === 'space' ? { type: 'space', item: updated } : { type: 'collection', item: updated };
}
