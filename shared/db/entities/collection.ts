import { defineEntity } from '../entity.ts';
import type { DefaultLevel } from '../../http/schemas.ts';
import { childrenPartition } from './children.ts';

export interface CollectionItem {
  id: string;
  orgId: string;
  title: string;
  description?: string;
  /** Parent collection id; absent at the organization's root. */
  parent?: string;
  /** Ancestor collection ids, root first: permissions resolve in one BatchGet. */
  ancestors: string[];
  /** A role, null (no default access) or 'inherit' (see docs/permissions.md). */
  defaultLevel: DefaultLevel;
  /** Fractional index among the parent's children (spaces and collections share it). */
  position: string;
  createdBy: string;
  createdAt: string;
  updatedAt: string;
}

/**
 * COLLECTION#<id> / COLLECTION.
 * gsi1: the org's collections by creation (ORG#<org>#COLLECTIONS).
 * gsi2: children of the parent, by position (shared with spaces).
 */
export const collectionEntity = defineEntity<CollectionItem>()({
  type: 'collection',
  key: ({ collectionId }: { collectionId: string }) => ({ pk: `COLLECTION#${collectionId}`, sk: 'COLLECTION' }),
  indexes: {
    byOrg: { index: 'gsi1', pk: (a: { orgId: string }) => `ORG#${a.orgId}#COLLECTIONS`, sk: (c) => `${c.createdAt}#${c.id}` },
    /** Collections among a parent's children (spaces share the partition). */
    children: {
      index: 'gsi2', pk: (a: { orgId: string; parent?: string }) => childrenPartition(a.orgId, a.parent), sk: (c) => `${c.position}#${c.id}`, sharedPartition: true,
    },
  },
});
