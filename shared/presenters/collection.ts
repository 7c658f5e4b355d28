import type { CollectionItem } from '../db/entities/collection.ts';
import type { Role } from '../http/schemas.ts';
import { policies } from '../policies/index.ts';
import { apiLocation, appLocation } from './urls.ts';
import type { CollectionOutput } from './schemas/collection.ts';

/** Collection (spec 2.6), `permissions` computed for the caller's role. */
export function presentCollection(
  collection: CollectionItem,
  context: { role: Role | null },
): CollectionOutput {
  return {
    object: 'collection' as const,
    id: collection.id,
    title: collection.title,
    ...(collection.description !== undefined ? { description: collection.description } : {}),
    organization: collection.orgId,
    ...(collection.parent ? { parent: collection.parent } : {}),
    defaultLevel: collection.defaultLevel,
    urls: {
      location: apiLocation(`/collections/${collection.id}`),
      app: appLocation(`/o/${collection.orgId}/c/${collection.id}`),
    },
    permissions: policies.collection.permissions(context, collection),
  };
}
