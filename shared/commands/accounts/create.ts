import { randomId, sha256Hex } from '../../ids.ts';
import { nowIso } from '../../clock.ts';
import { config } from '../../config.ts';
import { run, transact } from '../../db/writes.ts';
import { userEntity, type UserItem } from '../../db/entities/user.ts';
import { tokenEntity } from '../../db/entities/token.ts';
import { organizationEntity, type OrganizationItem } from '../../db/entities/organization.ts';
import { memberEntity, type MemberItem } from '../../db/entities/member.ts';
import type { Role } from '../../http/schemas.ts';
import { conflict } from '../../http/errors.ts';

/**
 * Account administration shared by the admin CLI, the local bootstrap and tests:
 * users, access tokens (stored hashed), organizations and memberships.
 */

export async function createUser(input: { displayName: string; email: string; emailVerified?: boolean; id?: string }): Promise<UserItem> {
  const now = nowIso();
  const user: UserItem = {
    id: input.id ?? randomId(),
    displayName: input.displayName,
    email: input.email,
    emailVerified: input.emailVerified ?? true,
    createdAt: now,
    updatedAt: now,
  };
  await run(userEntity.create({ userId: user.id }, user));
  return user;
}

export async function getUser(userId: string): Promise<UserItem | undefined> {
  return userEntity.get({ userId });
}

/**
 * Creates an access token; the secret is returned once and only its hash is stored.
 * `expiresAt` (epoch seconds) limits its life (SSO tokens); without it the token lasts until revoked.
 */
export async function createAccessToken(userId: string, label = 'access token', secret?: string, expiresAt?: number): Promise<string> {
  const token = secret ?? `dps_${randomId(40)}`;
  const hash = sha256Hex(token);
  await run(tokenEntity.put({ hash }, { hash, userId, label, createdAt: nowIso(), ...(expiresAt !== undefined ? { expiresAt } : {}) }));
  return token;
}

export async function revokeAccessToken(token: string): Promise<void> {
  await run(tokenEntity.update({ hash: sha256Hex(token) }, { set: { revokedAt: nowIso() } }));
}

export function newOrganization(title: string, id = randomId()): OrganizationItem {
  const now = nowIso();
  return {
    id,
    title,
    createdAt: now,
    updatedAt: now,
    emailDomains: [],
    hostname: `${id.toLowerCase()}.${config.publishedDomain}`,
    type: 'business',
    defaultRole: null,
    sso: false,
    ai: true,
    inviteLinks: true,
    plan: 'free',
    mergeRules: { type: 'none' },
  };
}

export function newMember(orgId: string, user: UserItem, role: Role | null): MemberItem {
  return {
    orgId,
    userId: user.id,
    role,
    joinedAt: nowIso(),
    sso: false,
    disabled: false,
    teams: 0,
    searchText: `${user.displayName} ${user.email}`.toLowerCase(),
  };
}

/** Creates an organization with `owner` as its first admin, in one transaction. */
export async function createOrganization(input: { title: string; owner: UserItem; id?: string }): Promise<OrganizationItem> {
  const org: OrganizationItem = { ...newOrganization(input.title, input.id), createdBy: input.owner.id };
  const member = newMember(org.id, input.owner, 'admin');
  await transact([
    organizationEntity.create({ orgId: org.id }, org),
    memberEntity.put({ orgId: org.id, userId: member.userId }, member),
  ], () => conflict(`Organization ${org.id} already exists`));
  return org;
}

/** Adds a user to an organization with a role; 409 when already a member. */
export async function addMember(orgId: string, user: UserItem, role: Role | null): Promise<MemberItem> {
  const member = newMember(orgId, user, role);
  await transact([
    organizationEntity.check({ orgId }, (w) => w.exists()),
    memberEntity.create({ orgId, userId: user.id }, member),
  ], (index) => conflict(index === 0 ? `No organization ${orgId}` : `User ${user.id} is already a member of ${orgId}`));
  return member;
}
