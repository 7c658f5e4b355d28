import type { Key } from '../db/table.ts';
import { spaceEntity } from '../db/entities/space.ts';
import { collectionEntity } from '../db/entities/collection.ts';
import { organizationEntity } from '../db/entities/organization.ts';

/**
 * Keys of the resource a path is about, read in the same BatchGetItem as the caller's
 * token so a single-resource GET costs at most two round trips.
 */
export function prefetchKeys(path: string): Key[] {
  const [, , kind, id] = path.split('/'); // '', 'v1', kind, id
  if (!id) return [];
  const decoded = safeDecode(id);
  if (decoded === undefined) return [];
  switch (kind) {
    case 'spaces': return [spaceEntity.key({ spaceId: decoded })];
    case 'collections': return [collectionEntity.key({ collectionId: decoded })];
    case 'orgs': return [organizationEntity.key({ orgId: decoded })];
    default: return [];
  }
}

function safeDecode(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}
