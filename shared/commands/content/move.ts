import { spaceEntity, type SpaceItem } from '../../db/entities/space.ts';
import { collectionEntity, type CollectionItem } from '../../db/entities/collection.ts';
import { transact, type Write } from '../../db/writes.ts';
import { conflict } from '../../http/errors.ts';
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
 * Moves a space or collection to a new parent/position and/or organization. For a
 * collection, every descendant gets its new ancestor path (and organization) too.
 * Up to 100 records change atomically; a larger subtree is written in chunks of 100,
 * each conditional on the record being unchanged.
 */
export async function relocate(
  node: Node,
  target: { orgId: string; parent: string | undefined; ancestors: string[]; position: string },
): Promise<Node> {
  const now = nowIso();
  const previous = node.item.updatedAt;
  const moved = {
    ...node.item,
    orgId: target.orgId,
    parent: target.parent,
    ancestors: target.ancestors,
    position: target.position,
    updatedAt: now,
  } as Node['item'];
  if (!target.parent) delete moved.parent;
  if (node.type === 'space') (moved as SpaceItem).visibility = visibilityAt(node.item.visibility, target.parent);
  const root = { type: node.type, item: moved } as Node;
  const writes = [putIfUnchanged(root, previous)];
  const spaces = node.type === 'space' ? [node.item.id] : [];
  if (node.type === 'collection') {
    const below = await descendants(node.item.orgId, node.item.id);
    for (const child of below) writes.push(putIfUnchanged(rebase(child, root.item as CollectionItem, now), child.item.updatedAt));
    spaces.push(...below.filter((child) => child.type === 'space').map((child) => child.item.id));
  }
  for (let i = 0; i < writes.length; i += 100) {
    await transact(writes.slice(i, i + 100), () => conflict('The content was changed by another request; retry'));
  }
  // Into another organization: the change requests of every space moved follow it.
  if (target.orgId !== node.item.orgId) {
    for (const spaceId of spaces) await moveChangeRequestsToOrganization(spaceId, target.orgId);
  }
  return root;
}

/** A descendant of a moved collection, with its ancestors re-rooted under the collection's new path. */
function rebase(child: TreeNode, movedRoot: CollectionItem, now: string): Node {
  const item = child.item as SpaceItem & CollectionItem;
  const below = item.ancestors.slice(item.ancestors.indexOf(movedRoot.id) + 1);
  const updated = { ...item, orgId: movedRoot.orgId, ancestors: [...movedRoot.ancestors, movedRoot.id, ...below], updatedAt: now };
  return child.type === 'space' ? { type: 'space', item: updated } : { type: 'collection', item: updated };
}
