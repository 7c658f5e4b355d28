import { randomId } from '../../ids.ts';
import { nowIso } from '../../clock.ts';
import type { SpaceItem } from '../../db/entities/space.ts';

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
