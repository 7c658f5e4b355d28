import type { Context } from 'hono';
import type { AppEnv } from '../http/env.ts';
import { notFound } from '../http/errors.ts';
import { nowEpochSeconds } from '../clock.ts';
import type { Role } from '../http/schemas.ts';
import { organizationEntity, type OrganizationItem } from '../db/entities/organization.ts';
import { memberEntity, type MemberItem } from '../db/entities/member.ts';
import { spaceEntity, type SpaceItem } from '../db/entities/space.ts';
import { collectionEntity, type CollectionItem } from '../db/entities/collection.ts';
import { effectiveRole, type LevelHolder } from './effective-role.ts';
import { atLeast } from './roles.ts';
import { rememberPlacement } from '../http/key-hints.ts';

type Ctx = Context<AppEnv>;

export interface OrgAccess {
  org: OrganizationItem;
  member: MemberItem;
  /** The caller's org role (null for guests). */
  role: Role | null;
}

export interface ContentAccess {
  org: OrganizationItem;
  member: MemberItem | undefined;
  /** The caller's effective role on the resource. */
  role: Role | null;
  /** Ancestor collections, nearest parent first. */
  ancestors: CollectionItem[];
}

/** The org and the caller's membership; 404 when either is missing (no existence leak). */
export async function loadOrgAccess(c: Ctx, orgId: string): Promise<OrgAccess> {
  const loader = c.get('loader');
  const orgKey = organizationEntity.key({ orgId });
  const memberKey = memberEntity.key({ orgId, userId: c.get('caller').userId });
  await loader.load([orgKey, memberKey]);
  const org = loader.peek(orgKey);
  const member = loader.peek(memberKey);
  if (!org || !member || member.disabled) throw notFound(`No organization found with id ${orgId}`);
  const m = memberEntity.fromRecord(member);
  return { org: organizationEntity.fromRecord(org), member: m, role: m.role };
}

/** A space is gone once its TTL has passed, even before DynamoDB removes it. */
export function isExpired(space: Pick<SpaceItem, 'expiresAt'>): boolean {
  return space.expiresAt !== undefined && space.expiresAt <= nowEpochSeconds();
}

/**
 * A space with the caller's effective role. 404 when it does not exist, has expired,
 * is deleted (unless `deleted: 'include'`), or the caller may not read it.
 */
export async function loadSpaceAccess(c: Ctx, spaceId: string, options: { deleted?: 'include' } = {}) {
  const record = await c.get('loader').get(spaceEntity.key({ spaceId }));
  const missing = () => notFound(`No space found with id ${spaceId}`);
  if (!record) throw missing();
  const space = spaceEntity.fromRecord(record);
  if (isExpired(space) || (space.deletedAt && options.deleted !== 'include')) throw missing();
  rememberPlacement(record.pk as string, space.orgId, space.ancestors);
  const access = await loadContentAccess(c, space.orgId, space, space.ancestors);
  if (!atLeast(access.role, 'read')) throw missing();
  return { space, ...access };
}

/** A collection with the caller's effective role; 404 when absent or not readable. */
export async function loadCollectionAccess(c: Ctx, collectionId: string) {
  const record = await c.get('loader').get(collectionEntity.key({ collectionId }));
  const missing = () => notFound(`No collection found with id ${collectionId}`);
  if (!record) throw missing();
  const collection = collectionEntity.fromRecord(record);
  rememberPlacement(record.pk as string, collection.orgId, collection.ancestors);
  const access = await loadContentAccess(c, collection.orgId, collection, collection.ancestors);
  if (!atLeast(access.role, 'read')) throw missing();
  return { collection, ...access };
}

/** Role of the caller on something in `orgId` whose ancestor collection ids are given. */
export async function loadContentAccess(
  c: Ctx,
  orgId: string,
  resource: LevelHolder | undefined,
  ancestorIds: string[],
): Promise<ContentAccess> {
  const loader = c.get('loader');
  const orgKey = organizationEntity.key({ orgId });
  const memberKey = memberEntity.key({ orgId, userId: c.get('caller').userId });
  const ancestorKeys = ancestorIds.map((collectionId) => collectionEntity.key({ collectionId }));
  await loader.load([orgKey, memberKey, ...ancestorKeys]);
  const orgRecord = loader.peek(orgKey);
  if (!orgRecord) throw notFound(`No organization found with id ${orgId}`);
  const org = organizationEntity.fromRecord(orgRecord);
  const memberRecord = loader.peek(memberKey);
  const member = memberRecord ? memberEntity.fromRecord(memberRecord) : undefined;
  const ancestors = ancestorKeys
    .map((k) => loader.peek(k))
    .filter((r): r is Record<string, unknown> => r !== undefined)
    .map((r) => collectionEntity.fromRecord(r))
    .reverse();
  const chain = resource ? [resource, ...ancestors] : ancestors;
  return { org, member, role: effectiveRole(member, org, chain), ancestors };
}
