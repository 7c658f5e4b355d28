import { defineCollection } from '../collection.ts';
import { childrenPartition } from './children.ts';
import { spaceEntity } from './space.ts';
import { collectionEntity } from './collection.ts';

/**
 * The ordered children of a parent (a collection, or the organization's root): spaces and
 * collections share the gsi2 partition, sorted by `<position>#<id>`. Deleted spaces leave it
 * (sparse index).
 */
export const contentChildren = defineCollection({
  index: 'gsi2',
  pk: (a: { orgId: string; parent?: string }) => childrenPartition(a.orgId, a.parent),
  members: { space: spaceEntity, collection: collectionEntity },
});
