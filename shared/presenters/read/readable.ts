import type { OrganizationItem } from '../../db/entities/organization.ts';
import { memberEntity } from '../../db/entities/member.ts';
import { collectionEntity, type CollectionItem } from '../../db/entities/collection.ts';
import type { Role } from '../../http/schemas.ts';
import { effectiveRole, type LevelHolder } from '../../policies/effective-role.ts';
import { atLeast } from '../../policies/roles.ts';
import type { RequestScope } from '../../http/scope.ts';

/**
 * Presents the items of one organization the caller may read, each with the caller's
 * role on it. Ancestor collections of the whole page are fetched in one batch.
 */
export async function presentReadable<T extends LevelHolder & { ancestors: string[] }, P>(
  request: RequestScope,
  org: OrganizationItem,
  items: T[],
  present: (item: T, role: Role | null) => P,
): Promise<P[]> {
  const loader = request.loader;
  const memberKey = memberEntity.key({ orgId: org.id, userId: request.caller.userId });
  const ancestorIds = [...new Set(items.flatMap((i) => i.ancestors))];
  await loader.load([memberKey, ...ancestorIds.map((collectionId) => collectionEntity.key({ collectionId }))]);
  const memberRecord = loader.peek(memberKey);
  const member = memberRecord ? memberEntity.fromRecord(memberRecord) : undefined;
  const collection = (id: string) => {
    const r = loader.peek(collectionEntity.key({ collectionId: id }));
    return r ? (collectionEntity.fromRecord(r) as CollectionItem) : undefined;
  };
  const out: P[] = [];
  for (const item of items) {
    const chain: LevelHolder[] = [item, ...item.ancestors.map(collection).filter((x): x is CollectionItem => !!x).reverse()];
    const role = effectiveRole(member, org, chain);
    if (atLeast(role, 'read')) out.push(present(item, role));
  }
  return out;
}
