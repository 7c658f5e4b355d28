import { operationGroup } from '../../shared/http/declare.ts';
import { listMembersQuery, memberParams, memberSpacesQuery, memberTeamsQuery, organizationParams, updateMemberBody } from './schemas.ts';
import { listSchema } from '../../shared/presenters/schemas/list.ts';
import { memberSchema, memberSpacePermissionSchema, memberTeamSchema, pingSchema } from '../../shared/presenters/schemas/member.ts';

/** The members group's operations (spec 4.13), one declaration each (shared/http/declare.ts). */
export const group = operationGroup('members', '4.13');

export const listMembersInOrganizationById = group.declare({
  method: 'GET',
  path: '/orgs/{organizationId}/members',
  operationId: 'listMembersInOrganizationById',
  summary: 'List the members of an organization.',
  role: 'read',
  params: organizationParams,
  query: listMembersQuery,
  responses: {
    200: { description: 'Success', schema: listSchema(memberSchema) },
  },
});

export const getMemberInOrganizationById = group.declare({
  method: 'GET',
  path: '/orgs/{organizationId}/members/{userId}',
  operationId: 'getMemberInOrganizationById',
  summary: 'Get a member of an organization.',
  role: { rule: 'read in the organization, or the member themself' },
  params: memberParams,
  responses: {
    200: { description: 'Success', schema: memberSchema },
  },
});

export const removeMemberFromOrganizationById = group.declare({
  method: 'DELETE',
  path: '/orgs/{organizationId}/members/{userId}',
  operationId: 'removeMemberFromOrganizationById',
  summary: 'Remove a member from an organization.',
  role: { rule: 'admin in the organization, or the member themself (leaving)' },
  params: memberParams,
  responses: {
    204: { description: 'No content (also when there was nothing to delete)' },
  },
});

export const updateMemberInOrganizationById = group.declare({
  method: 'PATCH',
  path: '/orgs/{organizationId}/members/{userId}',
  operationId: 'updateMemberInOrganizationById',
  summary: 'Update a member\'s role in an organization.',
  role: 'admin',
  params: memberParams,
  body: updateMemberBody,
  responses: {
    200: { description: 'Success', schema: memberSchema },
  },
});

export const updateOrganizationMemberLastSeenAt = group.declare({
  method: 'POST',
  path: '/orgs/{organizationId}/ping',
  operationId: 'updateOrganizationMemberLastSeenAt',
  summary: 'Update the caller\'s last seen time in an organization.',
  role: 'member',
  params: organizationParams,
  responses: {
    200: { description: 'Success', schema: pingSchema },
  },
});

export const setUserAsSSOMemberForOrganization = group.declare({
  method: 'POST',
  path: '/orgs/{organizationId}/members/{userId}/sso',
  operationId: 'setUserAsSSOMemberForOrganization',
  summary: 'Set a user as an SSO member of an organization.',
  role: 'admin',
  params: memberParams,
  responses: {
    200: { description: 'Success', schema: memberSchema },
  },
});

export const listSpacesForOrganizationMember = group.declare({
  method: 'GET',
  path: '/orgs/{organizationId}/members/{userId}/spaces',
  operationId: 'listSpacesForOrganizationMember',
  summary: 'List a member\'s space permissions in an organization.',
  role: { rule: 'admin in the organization, or the member themself' },
  params: memberParams,
  query: memberSpacesQuery,
  responses: {
    200: { description: 'Success', schema: listSchema(memberSpacePermissionSchema) },
  },
});

export const listTeamsForOrganizationMember = group.declare({
  method: 'GET',
  path: '/orgs/{organizationId}/members/{userId}/teams',
  operationId: 'listTeamsForOrganizationMember',
  summary: 'List the teams of an organization member.',
  role: { rule: 'admin in the organization, or the member themself' },
  params: memberParams,
  query: memberTeamsQuery,
  responses: {
    200: { description: 'Success', schema: listSchema(memberTeamSchema) },
  },
});
