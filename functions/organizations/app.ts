import type { Context } from 'hono';
import { createHash } from 'node:crypto';
import type { AppEnv } from '../../shared/http/env.ts';
import { catchAllGroupApp, operationRoutes, route } from '../../shared/http/route.ts';
import * as op from './operations.ts';
import { serviceDescription } from '../../shared/http/service-description.ts';
import { operations } from '../catalogue.ts';
import { health } from '../../shared/http/health.ts';
import { badRequest, forbidden, notFound } from '../../shared/http/errors.ts';
import { MAX_PAGE_SIZE } from '../../shared/http/schemas.ts';
import { opensOrganization, refuseOutsideBinding } from '../../shared/http/token-binding.ts';
import { policies } from '../../shared/policies/index.ts';
import { findOrgAccess, isActiveMember, isExpired, loadOrgAccess } from '../../shared/policies/access.ts';
import { nowIso } from '../../shared/clock.ts';
import { organizationEntity, type OrganizationItem } from '../../shared/db/entities/organization.ts';
import { memberEntity } from '../../shared/db/entities/member.ts';
import { userEntity } from '../../shared/db/entities/user.ts';
import { spaceEntity } from '../../shared/db/entities/space.ts';
import { collectionEntity } from '../../shared/db/entities/collection.ts';
import { siteEntity } from '../../shared/db/entities/site.ts';
import {
  agentInstructionsEntity, emailDomainEntity, inviteEntity, type AgentInstructionsItem,
} from '../../shared/db/entities/org-records.ts';
import { updateOrganization, type OrganizationChanges, type RemovableField } from '../../shared/commands/organizations/update.ts';
import { emailDomainOf, joinOrganization, mayJoinByEmailDomain } from '../../shared/commands/organizations/join.ts';
import { presentOrganization } from '../../shared/presenters/organization.ts';
import { presentAgentInstructions } from '../../shared/presenters/agent-instructions.ts';
import { presentList } from '../../shared/presenters/list.ts';
import { pageOfArray } from '../../shared/http/array-page.ts';
import { searchOrganization } from '../../shared/content/search/organization-search.ts';
import { absentUser, presentUser } from '../../shared/presenters/user.ts';
import { integrationOfUserId } from '../../shared/integrations/installation-user.ts';
import { type UpdateOrganizationBody } from './schemas.ts';
import { run } from '../../shared/db/writes.ts';

/** Organizations (spec 4.12) and the authenticated user. */
const routes = operationRoutes();

/**
 * The caller's organizations, oldest membership first: the gsi1 partition USER#<user>#ORGS
 * is sorted by `<joinedAt>#<orgId>`, so the order is joinedAt ascending (ties by org id).
 * Disabled memberships are left out (those organizations answer 404 to the caller).
 */
route(routes, op.listOrganizationsForAuthenticatedUser, async (c) => {
  const { page, limit } = c.req.valid('query');
  // A token bound to one organization (an SSO login's) lists that one, where the user is a member.
  const { orgId } = c.get('caller');
  if (orgId !== undefined) {
    const bound = await findOrgAccess(c.var.scope, orgId); // undefined: no longer a member
    return c.json(presentList(bound ? [presentOrganization(bound.org, { role: bound.role })] : [], undefined));
  }
  const result = await memberEntity.query.byUser({ userId: c.get('caller').userId }, { where: (w) => w.ne('disabled', true) })
    .page({ limit, cursor: page });
  const members = result.items;
  const loader = c.get('loader');
  await loader.load(members.map((m) => organizationEntity.key({ orgId: m.orgId })));
  const items = members.flatMap((m) => {
    const record = loader.peek(organizationEntity.key({ orgId: m.orgId }));
    return record ? [presentOrganization(organizationEntity.fromRecord(record), { role: m.role })] : [];
  });
  return c.json(presentList(items, result.next));
});

route(routes, op.getOrganizationById, async (c) => {
  const { organizationId } = c.req.valid('param');
  const { org, role } = await loadOrgAccess(c.var.scope, organizationId);
  return c.json(presentOrganization(org, { role }));
});

route(routes, op.updateOrganizationById, async (c) => {
  const { organizationId } = c.req.valid('param');
  const body = c.req.valid('json');
  const access = await loadOrgAccess(c.var.scope, organizationId);
  const { org, role } = access;
  policies.organization.authorize(access, 'update');
  await checkDefaultContent(c, org, body.defaultContent);
  const { set, remove } = changesOf(body);
  const updated = await updateOrganization(org, set, remove);
  c.get('loader').forget(organizationEntity.key({ orgId: organizationId }));
  return c.json(presentOrganization(updated, { role }));
});

route(routes, op.deleteOrganizationInviteById, async (c) => {
  const { organizationId, inviteId } = c.req.valid('param');
  policies.organization.authorize(await loadOrgAccess(c.var.scope, organizationId), 'admin');
  // 204 whether or not the invite existed (spec 4.12 and 7.1).
  await run(inviteEntity.delete({ orgId: organizationId, inviteId }));
  return c.body(null, 204);
});

/**
 * Join by email domain. The caller is not a member yet, so membership is not required:
 * 404 when the organization does not exist, 204 without any change when the caller is
 * already an (enabled) member, 403 when the caller's membership is disabled (joining does
 * not undo an admin's decision), 400 unless the caller's email is verified and its domain
 * is one of the organization's emailDomains. The new member's role is
 * `org.defaultRole ?? 'read'` (see joinRole).
 */
route(routes, op.joinOrganization, async (c) => {
  const { organizationId } = c.req.valid('param');
  const userId = c.get('caller').userId;
  refuseOutsideBinding(c.get('caller'), organizationId);
  const loader = c.get('loader');
  const orgKey = organizationEntity.key({ orgId: organizationId });
  const memberKey = memberEntity.key({ orgId: organizationId, userId });
  const userKey = userEntity.key({ userId });
  await loader.load([orgKey, memberKey, userKey]);
  const orgRecord = loader.peek(orgKey);
  if (!orgRecord) throw notFound(`No organization found with id ${organizationId}`);
  const memberRecord = loader.peek(memberKey);
  if (memberRecord) {
    if (memberEntity.fromRecord(memberRecord).disabled) throw forbidden('Your membership of this organization is disabled');
    return c.body(null, 204);
  }
  const userRecord = loader.peek(userKey);
  if (!userRecord) throw notFound(`No user found with id ${userId}`);
  const org = organizationEntity.fromRecord(orgRecord);
  const user = userEntity.fromRecord(userRecord);
  if (!mayJoinByEmailDomain(user, org)) throw badRequest("The user's email domain is not valid");
  await joinOrganization(org, user);
  loader.forget(memberKey);
  return c.body(null, 204);
});

/**
 * Organization content search (searchOrganizationContent): the primary content of the
 * organization's spaces the caller can read, through each revision's stored index
 * (shared/content/search/organization-search.ts). Items are spaces with hits, best first.
 */
route(routes, op.searchOrganizationContent, async (c) => {
  const { organizationId } = c.req.valid('param');
  const { query, page, limit } = c.req.valid('query');
  const { org } = await loadOrgAccess(c.var.scope, organizationId);
  const results = await searchOrganization(c.var.scope, org, query);
  const scope = `orgsearch:${createHash('sha256').update(`${organizationId}\n${query}`).digest('base64url').slice(0, 22)}`;
  const one = pageOfArray(results, { limit, cursor: page, scope });
  return c.json(presentList(one.items, one.next));
});

/** Any member reads the instructions; see presentAgentInstructions for the never-set default. */
route(routes, op.getOrganizationAgentInstructions, async (c) => {
  const { organizationId } = c.req.valid('param');
  const loader = c.get('loader');
  const instructionsKey = agentInstructionsEntity.key({ orgId: organizationId });
  await loader.load([
    organizationEntity.key({ orgId: organizationId }),
    memberEntity.key({ orgId: organizationId, userId: c.get('caller').userId }),
    instructionsKey,
  ]);
  const { org } = await loadOrgAccess(c.var.scope, organizationId);
  const record = loader.peek(instructionsKey);
  return c.json(presentAgentInstructions(org, record ? agentInstructionsEntity.fromRecord(record) : undefined));
});

route(routes, op.updateOrganizationAgentInstructions, async (c) => {
  const { organizationId } = c.req.valid('param');
  const { instructions } = c.req.valid('json');
  const access = await loadOrgAccess(c.var.scope, organizationId);
  const { org } = access;
  policies.organization.authorize(access, 'admin');
  const item: AgentInstructionsItem = {
    orgId: organizationId,
    // `data` is required in the official document shape: an omitted one is stored as {}.
    instructions: { ...instructions!, data: instructions!.data ?? {} },
    updatedAt: nowIso(),
    updatedBy: c.get('caller').userId,
  };
  // A PUT replaces the whole document: the last write wins.
  await run(agentInstructionsEntity.put({ orgId: organizationId }, item));
  return c.json(presentAgentInstructions(org, item));
});

/**
 * Organizations that allow an email domain, limited to those the caller may see: the
 * organizations the caller is an (enabled) member of, plus, when the caller's verified
 * email is in that domain, every organization allowing it (so users discover the
 * organizations they may join). Non-members see no billing and all-false permissions.
 * One Query of EMAILDOMAIN#<domain> (at most 1000 organizations) and one BatchGet.
 */
route(routes, op.getOrganizationsForEmailDomain, async (c) => {
  const { emailDomain } = c.req.valid('param');
  const userId = c.get('caller').userId;
  const result = await emailDomainEntity.query.byDomain({ domain: emailDomain }).page({ limit: MAX_PAGE_SIZE });
  // A token bound to one organization sees that one only, the others it could join among them.
  const orgIds = result.items.map((d) => d.orgId).filter((orgId) => opensOrganization(c.get('caller'), orgId));
  const loader = c.get('loader');
  const userKey = userEntity.key({ userId });
  await loader.load([
    userKey,
    ...orgIds.map((orgId) => organizationEntity.key({ orgId })),
    ...orgIds.map((orgId) => memberEntity.key({ orgId, userId })),
  ]);
  const userRecord = loader.peek(userKey);
  const user = userRecord ? userEntity.fromRecord(userRecord) : undefined;
  // Those it could join: the one rule of joining by domain (never a public provider's domain).
  const mayJoin = (org: OrganizationItem) => !!user && emailDomainOf(user.email) === emailDomain && mayJoinByEmailDomain(user, org);
  const organizations = orgIds.flatMap((orgId) => {
    const orgRecord = loader.peek(organizationEntity.key({ orgId }));
    if (!orgRecord) return [];
    const org = organizationEntity.fromRecord(orgRecord);
    if (!org.emailDomains.includes(emailDomain)) return [];
    const memberRecord = loader.peek(memberEntity.key({ orgId, userId }));
    const member = memberRecord ? memberEntity.fromRecord(memberRecord) : undefined;
    if (isActiveMember(member)) return [presentOrganization(org, { role: member.role })];
    return mayJoin(org) ? [presentOrganization(org, { role: undefined })] : [];
  });
  return c.json({ organizations });
});

route(routes, op.getAuthenticatedUser, async (c) => {
  const userId = c.get('caller').userId;
  const record = await c.get('loader').get(userEntity.key({ userId }));
  if (record) return c.json(presentUser(userEntity.fromRecord(record)));
  // An installation token acts as its installation, which has no user record: it is shown as elsewhere (createdBy, members).
  if (integrationOfUserId(userId)) return c.json(presentUser(absentUser(userId, nowIso())));
  throw notFound(`No user found with id ${userId}`);
});

/** Splits a PATCH body into fields to set and optional fields to remove (null). */
function changesOf(body: UpdateOrganizationBody): { set: OrganizationChanges; remove: RemovableField[] } {
  const { defaultContent, logo, ...rest } = body;
  const set: OrganizationChanges = { ...rest };
  const remove: RemovableField[] = [];
  if (defaultContent === null) remove.push('defaultContent');
  else if (defaultContent !== undefined) set.defaultContent = defaultContent;
  if (logo === null) remove.push('logo');
  else if (logo !== undefined) set.logo = logo;
  return { set, remove };
}

/**
 * "Invalid default content space or collection provided" (spec 7): a site, space or
 * collection given as default content must exist in this organization (a space must not be
 * deleted); the public interface's default content is a site, checked the same way.
 */
async function checkDefaultContent(
  c: Context<AppEnv>,
  org: OrganizationItem,
  content: UpdateOrganizationBody['defaultContent'],
): Promise<void> {
  if (!content) return;
  const loader = c.get('loader');
  if (content.type === 'site') {
    const record = await loader.get(siteEntity.key({ siteId: content.site }));
    if (!record || siteEntity.fromRecord(record).orgId !== org.id) {
      throw badRequest(`defaultContent: invalid default content site ${content.site}: no such site in this organization`);
    }
    return;
  }
  if (content.type === 'space') {
    const record = await loader.get(spaceEntity.key({ spaceId: content.space }));
    const space = record ? spaceEntity.fromRecord(record) : undefined;
    if (!space || space.orgId !== org.id || space.deletedAt || isExpired(space)) {
      throw badRequest(`defaultContent: invalid default content space ${content.space}: no such space in this organization`);
    }
    return;
  }
  const record = await loader.get(collectionEntity.key({ collectionId: content.collection }));
  if (!record || collectionEntity.fromRecord(record).orgId !== org.id) {
    throw badRequest(`defaultContent: invalid default content collection ${content.collection}: no such collection in this organization`);
  }
}

// The catch-all route's app in AWS (NOT_FOUND_GROUP): it knows every route, to answer a wrong method with 405.
export const app = catchAllGroupApp(op.group, operations, serviceDescription(operations), health, routes);
