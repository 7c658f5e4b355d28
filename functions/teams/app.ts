import { groupApp, operationRoutes, route } from '../../shared/http/route.ts';
import * as op from './operations.ts';
import { badRequest, notFound } from '../../shared/http/errors.ts';
import { policies } from '../../shared/policies/index.ts';
import { loadOrgAccess } from '../../shared/policies/access.ts';
import { organizationEntity } from '../../shared/db/entities/organization.ts';
import { memberEntity } from '../../shared/db/entities/member.ts';
import { teamEntity, teamMemberEntity, type TeamItem } from '../../shared/db/entities/team.ts';
import { presentList } from '../../shared/presenters/list.ts';
import { presentTeam } from '../../shared/presenters/team.ts';
import { createTeam } from '../../shared/commands/teams/create.ts';
import { deleteTeam } from '../../shared/commands/teams/delete.ts';
import { renameTeam } from '../../shared/commands/teams/rename.ts';

/**
 * Teams (spec 4.14), base /orgs/{organizationId}/teams. Reading needs a non-guest
 * membership (teamPermissions.view); creating, renaming and deleting need the admin role.
 */
const routes = operationRoutes();

route(routes, op.listTeamsInOrganizationById, async (c) => {
  const { organizationId } = c.req.valid('param');
  const { page, limit, owner, title } = c.req.valid('query');
  const loader = c.get('loader');
  const ownerKey = owner ? memberEntity.key({ orgId: organizationId, userId: owner }) : undefined;
  await loader.load([
    organizationEntity.key({ orgId: organizationId }),
    memberEntity.key({ orgId: organizationId, userId: c.get('caller').userId }),
    ...(ownerKey ? [ownerKey] : []),
  ]);
  const access = await loadOrgAccess(c.var.scope, organizationId);
  const { role } = access;
  policies.team.authorize(access, 'read');
  const titleLower = title ? title.toLowerCase() : undefined;
  let teams: TeamItem[];
  let next: string | undefined;
  const ownerRecord = ownerKey ? loader.peek(ownerKey) : undefined;
  if (ownerKey && !ownerRecord) throw badRequest(`owner: no member ${owner} in this organization`);
  const ownerMember = ownerRecord ? memberEntity.fromRecord(ownerRecord) : undefined;
  if (ownerMember && ownerMember.disabled) {
    teams = []; // a disabled member manages nothing
  } else if (ownerMember && ownerMember.role !== 'admin') {
    // Teams the member owns: their memberships (gsi1, by team id) with role owner.
    const result = await teamMemberEntity.query.byMember({ orgId: organizationId, userId: ownerMember.userId }, {
      where: (w) => w.and(w.eq('role', 'owner'), titleLower && w.contains('titleLower', titleLower)),
    }).page({ limit, cursor: page });
    const keys = result.items.map((m) => teamEntity.key({ orgId: organizationId, teamId: m.teamId }));
    await loader.load(keys);
    teams = keys.flatMap((k) => {
      const record = loader.peek(k);
      return record ? [teamEntity.fromRecord(record)] : [];
    });
    next = result.next;
  } else {
    // No owner filter, or the owner is an org admin (admins manage every team).
    const result = await teamEntity.query.inOrg({ orgId: organizationId }, {
      where: titleLower ? (w) => w.contains('titleLower', titleLower) : undefined,
    }).page({ limit, cursor: page });
    teams = result.items;
    next = result.next;
  }
  return c.json(presentList(teams.map((team) => presentTeam(team, { role })), next));
});

route(routes, op.createOrganizationTeam, async (c) => {
  const { organizationId } = c.req.valid('param');
  const body = c.req.valid('json');
  const access = await loadOrgAccess(c.var.scope, organizationId);
  const { role } = access;
  policies.team.authorize(access, 'admin');
  const callerId = c.get('caller').userId;
  const memberIds = [...new Set(body.members ?? [])];
  const loader = c.get('loader');
  const keys = memberIds.map((userId) => memberEntity.key({ orgId: organizationId, userId }));
  await loader.load(keys);
  const missing = memberIds.find((_, i) => !loader.peek(keys[i]!));
  if (missing !== undefined) throw badRequest(`members: ${missing} is not a member of this organization`);
  // The creator is a member of the team only when listed; listed, they own it.
  const members = memberIds.map((userId) => ({ userId, role: userId === callerId ? 'owner' as const : 'member' as const }));
  const team = await createTeam(organizationId, body.title, members);
  return c.json(presentTeam(team, { role }), 201);
});

route(routes, op.getTeamInOrganizationById, async (c) => {
  const { organizationId, teamId } = c.req.valid('param');
  const loader = c.get('loader');
  const teamKey = teamEntity.key({ orgId: organizationId, teamId });
  await loader.load([memberEntity.key({ orgId: organizationId, userId: c.get('caller').userId }), teamKey]);
  const access = await loadOrgAccess(c.var.scope, organizationId);
  const { role } = access;
  policies.team.authorize(access, 'read');
  const record = loader.peek(teamKey);
  if (!record) throw notFound(`No team found with id ${teamId}`);
  return c.json(presentTeam(teamEntity.fromRecord(record), { role }));
});

route(routes, op.removeTeamFromOrganizationById, async (c) => {
  const { organizationId, teamId } = c.req.valid('param');
  const access = await loadOrgAccess(c.var.scope, organizationId);
  policies.team.authorize(access, 'admin');
  const deleted = await deleteTeam(organizationId, teamId);
  // 204: there was no such team; 205: the team was deleted (official interface).
  return c.body(null, deleted ? 205 : 204);
});

route(routes, op.updateTeamInOrganizationById, async (c) => {
  const { organizationId, teamId } = c.req.valid('param');
  const { title } = c.req.valid('json');
  const loader = c.get('loader');
  const teamKey = teamEntity.key({ orgId: organizationId, teamId });
  await loader.load([memberEntity.key({ orgId: organizationId, userId: c.get('caller').userId }), teamKey]);
  const access = await loadOrgAccess(c.var.scope, organizationId);
  const { role } = access;
  policies.team.authorize(access, 'admin');
  const record = loader.peek(teamKey);
  if (!record) throw notFound(`No team found with id ${teamId}`);
  const team = await renameTeam(organizationId, teamId, title, teamEntity.fromRecord(record));
  return c.json(presentTeam(team, { role }));
});

export const app = groupApp(op.group, routes);
