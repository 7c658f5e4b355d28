import { defaultHostname } from './hostname.ts';
import { randomId } from '../../ids.ts';
import { nowIso } from '../../clock.ts';
import { transact } from '../../db/writes.ts';
import type { UserItem } from '../../db/entities/user.ts';
import { organizationEntity, type OrganizationItem } from '../../db/entities/organization.ts';
import { memberEntity } from '../../db/entities/member.ts';
import { conflict } from '../../http/errors.ts';
import { newMember } from '../members/add.ts';

export function newOrganization(title: string, id = randomId()): OrganizationItem {
  const now = nowIso();
  return {
    id,
    title,
    createdAt: now,
    updatedAt: now,
    emailDomains: [],
    hostname: defaultHostname(id),
    type: 'business',
    defaultRole: null,
    sso: false,
    ai: true,
    inviteLinks: true,
    plan: 'free',
    mergeRules: { type: 'none' },
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
