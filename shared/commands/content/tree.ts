import { randomInt } from 'node:crypto';
import { BASE_62_DIGITS, generateKeyBetween } from 'fractional-indexing';
import { contentChildren } from '../../db/entities/content-children.ts';
import type { SpaceItem } from '../../db/entities/space.ts';
import type { CollectionItem } from '../../db/entities/collection.ts';
import { badRequest } from '../../http/errors.ts';
import type { ContentPosition } from '../../http/schemas.ts';

/**
 * The organization's content tree: collections and spaces ordered under a parent
 * (a collection or the root) by a shared fractional position (gsi2).
 */

export type TreeNode = { id: string; position: string } & ({ type: 'space'; item: SpaceItem } | { type: 'collection'; item: CollectionItem });

/** Children of a parent in order (both kinds, deleted spaces excluded by the sparse index). */
export async function listChildren(orgId: string, parent: string | undefined): Promise<TreeNode[]> {
  const children = await contentChildren.readInOrder({ orgId, parent });
  return children.map(({ member, item }) => ({ id: item.id, position: item.position, type: member, item }) as TreeNode);
}

export function pointerId(pointer: { type: 'space'; space: string } | { type: 'collection'; collection: string }): string {
  return pointer.type === 'space' ? pointer.space : pointer.collection;
}

/**
 * Position for `movingId` among `siblings` (which may include it): before/after the
 * referenced sibling, or at the end. 400 when the reference is not a sibling.
 */
export function positionAmong(siblings: TreeNode[], movingId: string, position: ContentPosition | undefined): string {
  const others = siblings.filter((s) => s.id !== movingId);
  if (!position) return distinctKeyBetween(others.at(-1)?.position ?? null, null, others);
  const pointer = 'before' in position ? position.before : position.after;
  const targetId = pointerId(pointer);
  const index = others.findIndex((s) => s.id === targetId && s.type === pointer.type);
  if (index < 0) {
    throw badRequest(`position: ${pointer.type} ${targetId} is not in the target collection`);
  }
  const [low, high] = 'before' in position
    ? [others[index - 1]?.position ?? null, others[index]!.position]
    : [others[index]!.position, others[index + 1]?.position ?? null];
  return distinctKeyBetween(low, high, others);
}

/** Random characters after a computed key: fractional-indexing's digits, the last never '0' (no key ends in it). */
const TAIL_LENGTH = 4;

/**
 * A key between `low` and `high` with a random tail. Requests that read the same siblings at
 * the same time (ten spaces created in one collection at once) would otherwise compute the same
 * key, and a later move between two equal positions has no key to take. Positions left equal by
 * earlier writes are stepped over: the node lands after them.
 */
function distinctKeyBetween(low: string | null, high: string | null, siblings: TreeNode[]): string {
  if (low !== null && high !== null && low >= high) high = siblings.find((s) => s.position > low)?.position ?? null;
  const key = generateKeyBetween(low, high);
  let tail = '';
  for (let i = 0; i < TAIL_LENGTH; i++) tail += BASE_62_DIGITS[randomInt(i === TAIL_LENGTH - 1 ? 1 : 0, BASE_62_DIGITS.length)];
  // The tail only grows the key, so it stays above low; below high unless key is high's prefix.
  return high === null || key + tail < high ? key + tail : key;
}

/** True when the node would keep its place: same parent and same neighbours. */
export function keepsPlace(siblings: TreeNode[], movingId: string, position: ContentPosition | undefined): boolean {
  const index = siblings.findIndex((s) => s.id === movingId);
  if (index < 0) return false;
  if (!position) return index === siblings.length - 1;
  const pointer = 'before' in position ? position.before : position.after;
  const neighbour = 'before' in position ? siblings[index + 1] : siblings[index - 1];
  return neighbour?.id === pointerId(pointer) && neighbour.type === pointer.type;
}

/** Every collection and space below a collection, breadth first. */
export async function descendants(orgId: string, collectionId: string): Promise<TreeNode[]> {
  const all: TreeNode[] = [];
  let frontier = [collectionId];
  while (frontier.length > 0) {
    const next: string[] = [];
    for (const parent of frontier) {
      const children = await listChildren(orgId, parent);
      all.push(...children);
      next.push(...children.filter((c) => c.type === 'collection').map((c) => c.id));
    }
    frontier = next;
  }
  return all;
}
