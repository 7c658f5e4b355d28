import type { Key } from '../db/table.ts';
import { organizationEntity, orgIdOfKey } from '../db/entities/organization.ts';
import { memberEntity } from '../db/entities/member.ts';
import { collectionEntity } from '../db/entities/collection.ts';

/**
 * Per-instance hints of which records a request will need next: the user behind a token
 * hash, the organization and ancestors of a space or collection. Hints only choose keys to
 * read in the first BatchGetItem (or take from the instance's cache of access records,
 * auth-cache.ts); a stale hint costs one more round trip, never a wrong answer.
 */
const MAX_ENTRIES = 10_000;
const tokenUsers = new Map<string, string>();
const placements = new Map<string, { orgId: string; ancestors: string[] }>();

function remember<V>(map: Map<string, V>, key: string, value: V): void {
  map.delete(key);
  map.set(key, value);
  if (map.size > MAX_ENTRIES) map.delete(map.keys().next().value!);
}

export function rememberTokenUser(tokenHash: string, userId: string): void {
  remember(tokenUsers, tokenHash, userId);
}

/** Where a space or collection (by its partition key) sits: its organization and ancestors. */
export function rememberPlacement(pk: string, orgId: string, ancestors: string[]): void {
  remember(placements, pk, { orgId, ancestors });
}

/** Keys a request on `resourceKeys` by the token's user will most likely read after them. */
export function hintedKeys(tokenHash: string, resourceKeys: Key[]): Key[] {
  const userId = tokenUsers.get(tokenHash);
  const keys: Key[] = [];
  for (const key of resourceKeys) {
    const placement = placements.get(key.pk);
    const orgId = placement?.orgId ?? orgIdOfKey(key);
    if (!orgId) continue;
    if (placement) keys.push(organizationEntity.key({ orgId }));
    if (userId) keys.push(memberEntity.key({ orgId, userId }));
    for (const collectionId of placement?.ancestors ?? []) keys.push(collectionEntity.key({ collectionId }));
  }
  return keys;
}
