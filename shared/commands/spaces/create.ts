import { randomId } from '../../ids.ts';
import { nowIso } from '../../clock.ts';
import type { SpaceItem } from '../../db/entities/space.ts';

/**
 * A space's visibility where it is placed: `in-collection` is only for a space inside a
 * collection (spec 2.7), so a space that leaves its collection for the organization's root
 * (moved, transferred, or restored after its collection was deleted) becomes `private`, the
 * visibility of a new root space; every other visibility stays as it is.
 */
export function visibilityAt(visibility: SpaceItem['visibility'], parent: string | undefined): SpaceItem['visibility'] {
  return !parent && visibility === 'in-collection' ? 'private' : visibility;
}

/** A new space's stored fields; the caller decides parent, position and what to copy. */
export function newSpace(input: {
  orgId: string;
  createdBy: string;
  parent: string | undefined;
  ancestors: string[];
  position: string;
  title?: string;
  emoji?: string | null;
  language?: string;
  editMode?: SpaceItem['editMode'];
}): SpaceItem {
  const now = nowIso();
  return {
    id: randomId(),
    orgId: input.orgId,
    title: input.title ?? '',
    ...(input.emoji ? { emoji: input.emoji } : {}),
    visibility: input.parent ? 'in-collection' : 'private',
    editMode: input.editMode ?? 'live',
    ...(input.parent ? { parent: input.parent } : {}),
    ancestors: input.ancestors,
    position: input.position,
    ...(input.language ? { language: input.language } : {}),
    defaultLevel: 'inherit',
    mergeRules: { type: 'inherit' },
    // 128 bits: the secret part of share-link URLs.
    shareKey: randomId(22),
    comments: 0,
    changeRequests: 0,
    changeRequestsOpen: 0,
    changeRequestsDraft: 0,
    createdBy: input.createdBy,
    createdAt: now,
    updatedAt: now,
  };
}
