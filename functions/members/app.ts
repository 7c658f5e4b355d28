import type { Context } from 'hono';
import { groupApp, operationRoutes, route } from '../../shared/http/route.ts';
import * as op from './operations.ts';
import { notFound } from '../../shared/http/errors.ts';
import type { AppEnv } from '../../shared/http/env.ts';
import { policies } from '../../shared/policies/index.ts';
import { atLeast } from '../../shared/policies/roles.ts';
import { isExpired, loadOrgAccess } from '../../shared/policies/access.ts';
import { organizationEntity } from '../../shared/db/entities/organization.ts';
import { memberEntity, type MemberItem } from '../../shared/db/entities/member.ts';
import { spaceEntity } from '../../shared/db/entities/space.ts';
import { teamEntity, teamMemberEntity } from '../../shared/db/entities/team.ts';
import { presentList } from '../../shared/presenters/list.ts';
import { presentSpace } from '../../shared/presenters/space.ts';
import { presentTeam } from '../../shared/presenters/team.ts';
import { listMemberPage } from '../../shared/db/lists/members.ts';
import { presentMembers, presentOneMember } from '../../shared/presenters/read/members.ts';
import { ancestorKeys, memberSpaceRole, queryOrgSpaces } from '../../shared/presenters/read/member-spaces.ts';
import { removeMember } from '../../shared/commands/members/remove.ts';
import { setMemberAttributes } from '../../shared/commands/members/set-attributes.ts';
import { touchMember } from '../../shared/commands/members/touch.ts';
import { updateMemberRole } from '../../shared/commands/members/update-role.ts';
import { signVisitorClaims } from '../../shared/commands/members/claims.ts';

/**
 * Organization members (spec 4.13). Everyone here must be an active member of the
 * organization (404 otherwise, no existence leak); guests (role null) see only themselves.
 */
const routes = operationRoutes();

type Ctx = Context<AppEnv>;

/** The caller's org access and the member named by the path, read in one BatchGet. */
async function loadTarget(c: Ctx, orgId: string, userId: string) {
  const loader = c.get('loader');
  const targetKey = memberEntity.key({ orgId, userId });
  await loader.load([organizationEntity.key({ orgId }), memberEntity.key({ orgId, userId: c.get('caller').userId }), targetKey]);
  const access = await loadOrgAccess(c.var.scope, orgId);
  const record = loader.peek(targetKey);
  return { ...access, target: record ? memberEntity.fromRecord(record) : undefined };
}

function found(target: MemberItem | undefined, userId: string): MemberItem {
  if (!target) throw notFound(`No member found with id ${userId}`);
  return target;
}

route(routes, op.listMembersInOrganizationById, async (c) => {
  const { organizationId } = c.req.valid('param');
  const query = c.req.valid('query');
  const access = await loadOrgAccess(c.var.scope, organizationId);
  const { org } = access;
  policies.member.authorize(access, 'list', access);
  const [page, spaces] = await Promise.all([listMemberPage(organizationId, query), queryOrgSpaces(organizationId)]);
  const items = await presentMembers(c.var.scope, org, page.members, spaces);
  return c.json(presentList(items, page.next));
});

route(routes, op.getMemberInOrganizationById, async (c) => {
  const { organizationId, userId } = c.req.valid('param');
  const access = await loadTarget(c, organizationId, userId);
  const { org, target } = access;
  policies.member.authorize(access, 'read', { userId });
  return c.json(await presentOneMember(c.var.scope, org, found(target, userId)));
});

route(routes, op.removeMemberFromOrganizationById, async (c) => {
  const { organizationId, userId } = c.req.valid('param');
  const access = await loadTarget(c, organizationId, userId);
  policies.member.authorize(access, 'remove', { userId });
  const { target } = access;
  if (target) await removeMember(organizationId, userId, target);
  return c.body(null, 204);
});

route(routes, op.updateMemberInOrganizationById, async (c) => {
  const { organizationId, userId } = c.req.valid('param');
  const body = c.req.valid('json');
  const access = await loadTarget(c, organizationId, userId);
  policies.member.authorize(access, 'update', { userId });
  const { org, target } = access;
  const updated = await updateMemberRole(organizationId, userId, body.role, found(target, userId));
  return c.json(await presentOneMember(c.var.scope, org, updated));
});

route(routes, op.updateOrganizationMemberLastSeenAt, async (c) => {
  const { organizationId } = c.req.valid('param');
  const { member } = await loadOrgAccess(c.var.scope, organizationId);
  const seen = await touchMember(member);
  return c.json({ serviceVisitorClaims: await signVisitorClaims(seen) });
});

route(routes, op.setUserAsSSOMemberForOrganization, async (c) => {
  const { organizationId, userId } = c.req.valid('param');
  const access = await loadTarget(c, organizationId, userId);
  policies.member.authorize(access, 'update', { userId });
  const { org, target } = access;
  found(target, userId);
  const updated = await setMemberAttributes(organizationId, userId, { sso: true });
  return c.json(await presentOneMember(c.var.scope, org, updated));
});

route(routes, op.listSpacesForOrganizationMember, async (c) => {
  const { organizationId, userId } = c.req.valid('param');
  const { page, limit, order } = c.req.valid('query');
  const access = await loadTarget(c, organizationId, userId);
  policies.member.authorize(access, 'listOwn', { userId });
  const { org, target } = access;
  const member = found(target, userId);
  // gsi1 ORG#<org>#SPACES is sorted by createdAt. Spaces the member cannot read are
  // dropped from the page after the Query (a page may hold fewer than `limit` items).
  const result = await spaceEntity.query.byOrg({ orgId: organizationId }, { forward: order === 'asc' }).page({ limit, cursor: page });
  const spaces = result.items.filter((s) => !s.deletedAt && !isExpired(s));
  const loader = c.get('loader');
  await loader.load(ancestorKeys(spaces));
  const items = [];
  for (const space of spaces) {
    const permission = memberSpaceRole(member, org, space, loader);
    if (permission && atLeast(permission, 'read')) items.push({ permission, space: presentSpace(space, { role: permission, org }) });
  }
  return c.json(presentList(items, result.next));
});

route(routes, op.listTeamsForOrganizationMember, async (c) => {
  const { organizationId, userId } = c.req.valid('param');
  const { page, limit, title } = c.req.valid('query');
  const access = await loadTarget(c, organizationId, userId);
  policies.member.authorize(access, 'listOwn', { userId });
  const { role, target } = access;
  found(target, userId);
  const result = await teamMemberEntity.query.byMember({ orgId: organizationId, userId }, {
    where: title ? (w) => w.contains('titleLower', title.toLowerCase()) : undefined,
  }).page({ limit, cursor: page });
  const memberships = result.items;
  const loader = c.get('loader');
  await loader.load(memberships.map((m) => teamEntity.key({ orgId: organizationId, teamId: m.teamId })));
  const items = memberships.flatMap((m) => {
    const team = loader.peek(teamEntity.key({ orgId: organizationId, teamId: m.teamId }));
    return team ? [{ team: presentTeam(teamEntity.fromRecord(team), { role }), member: { role: m.role } }] : [];
  });
  return c.json(presentList(items, result.next));
});

export const app = groupApp(op.group, routes);
