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
import type { RequestScope } from '../http/scope.ts';

/** Access objects are the policies' actors (shared/policies/policy.ts): the caller's id and role. */
export interface OrgAccess {
  userId: string;
  org: OrganizationItem;
  member: MemberItem;
  /** The caller's org role (null for guests). */
  role: Role | null;
}

export interface ContentAccess {
  userId: string;
  org: OrganizationItem;
  member: MemberItem | undefined;
  /** The caller's effective role on the resource. */
  role: Role | null;
  /** Ancestor collections, nearest parent first. */
  ancestors: CollectionItem[];
}

/** Non-members, disabled ones included, learn nothing of an organization (docs/permissions.md). */
const organizationNotFound = (orgId: string) => notFound(`No organization found with id ${orgId}`);

/** The org and the caller's membership (assertMember: 404 for non-members and disabled members). */
export async function loadOrgAccess(request: RequestScope, orgId: string): Promise<OrgAccess> {
  const access = await findOrgAccess(request, orgId);
  if (!access) throw organizationNotFound(orgId);
  return access;
}

/** As loadOrgAccess, for callers that treat a non-member as an answer, not an error: undefined. */
export async function findOrgAccess(request: RequestScope, orgId: string): Promise<OrgAccess | undefined> {
  const loader = request.loader;
  const orgKey = organizationEntity.key({ orgId });
  const memberKey = memberEntity.key({ orgId, userId: request.caller.userId });
  await loader.loadAccess([orgKey, memberKey]);
  const org = loader.peek(orgKey);
  const memberRecord = loader.peek(memberKey);
  const member = memberRecord ? memberEntity.fromRecord(memberRecord) : undefined;
  if (!org || !isActiveMember(member)) return undefined;
  return { userId: member.userId, org: organizationEntity.fromRecord(org), member, role: member.role };
}

/**
 * The one membership rule of every organization route: the organization exists and the
 * caller is an enabled member of it. Anything else is a 404, disabled members included,
 * so an organization's existence is not revealed (docs/permissions.md).
 */
export function assertMember(orgId: string, org: unknown, member: MemberItem | undefined): asserts member is MemberItem {
  if (!org || !isActiveMember(member)) throw organizationNotFound(orgId);
}

/** A membership that counts: present and not disabled (a disabled member is treated as none). */
export function isActiveMember<M extends Pick<MemberItem, 'disabled'>>(member: M | undefined): member is M {
  return member !== undefined && !member.disabled;
}

/**
 * An organization's root as content lives there: the caller's effective role at the root
 * (the higher of the org role and the organization's defaultRole), for members only
 * (assertMember). What creating, listing or moving spaces and collections at the root needs.
 */
export async function loadRootAccess(request: RequestScope, orgId: string): Promise<ContentAccess & { member: MemberItem }> {
  const access = await loadContentAccess(request, orgId, undefined, []);
  assertMember(orgId, access.org, access.member);
  return { ...access, member: access.member };
}

/** A space is gone once its TTL has passed, even before DynamoDB removes it. */
export function isExpired(space: Pick<SpaceItem, 'expiresAt'>): boolean {
  return space.expiresAt !== undefined && space.expiresAt <= nowEpochSeconds();
}

/**
 * A space with the caller's effective role. 404 when it does not exist, has expired,
 * is deleted (unless `deleted: 'include'`), or the caller may not read it.
 */
export async function loadSpaceAccess(request: RequestScope, spaceId: string, options: { deleted?: 'include' } = {}) {
  const record = await request.loader.get(spaceEntity.key({ spaceId }));
  const missing = () => notFound(`No space found with id ${spaceId}`);
  if (!record) throw missing();
  const space = spaceEntity.fromRecord(record);
  if (isExpired(space) || (space.deletedAt && options.deleted !== 'include')) throw missing();
  rememberPlacement(record.pk as string, space.orgId, space.ancestors);
  const access = await loadContentAccess(request, space.orgId, space, space.ancestors);
  if (!atLeast(access.role, 'read')) throw missing();
  return { space, ...access };
}

/** A collection with the caller's effective role; 404 when absent or not readable. */
export async function loadCollectionAccess(request: RequestScope, collectionId: string) {
  const record = await request.loader.get(collectionEntity.key({ collectionId }));
  const missing = () => notFound(`No collection found with id ${collectionId}`);
  if (!record) throw missing();
  const collection = collectionEntity.fromRecord(record);
  rememberPlacement(record.pk as string, collection.orgId, collection.ancestors);
  const access = await loadContentAccess(request, collection.orgId, collection, collection.ancestors);
  if (!atLeast(access.role, 'read')) throw missing();
  return { collection, ...access };
}

/** Role of the caller on something in `orgId` whose ancestor collection ids are given. */
export async function loadContentAccess(
  request: RequestScope,
  orgId: string,
  resource: LevelHolder | undefined,
  ancestorIds: string[],
): Promise<ContentAccess> {
  const loader = request.loader;
  const orgKey = organizationEntity.key({ orgId });
  const memberKey = memberEntity.key({ orgId, userId: request.caller.userId });
  const ancestorKeys = ancestorIds.map((collectionId) => collectionEntity.key({ collectionId }));
  await loader.loadAccess([orgKey, memberKey, ...ancestorKeys]);
  const orgRecord = loader.peek(orgKey);
  if (!orgRecord) throw organizationNotFound(orgId);
  const org = organizationEntity.fromRecord(orgRecord);
  const memberRecord = loader.peek(memberKey);
  const member = memberRecord ? memberEntity.fromRecord(memberRecord) : undefined;
  const ancestors = ancestorKeys
    .map((k) => loader.peek(k))
    .filter((r): r is Record<string, unknown> => r !== undefined)
    .map((r) => collectionEntity.fromRecord(r))
    .reverse();
  const chain = resource ? [resource, ...ancestors] : ancestors;
  return { userId: request.caller.userId, org, member, role: effectiveRole(member, org, chain), ancestors };
}
