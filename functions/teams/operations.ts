import { operationGroup } from '../../shared/http/declare.ts';
import { createTeamBody, listTeamsQuery, organizationParams, teamParams, updateTeamBody } from './schemas.ts';
import { listSchema } from '../../shared/presenters/schemas/list.ts';
import { teamSchema } from '../../shared/presenters/schemas/team.ts';

/** The teams group's operations (spec 4.14), one declaration each (shared/http/declare.ts). */
export const group = operationGroup('teams', '4.14');

export const listTeamsInOrganizationById = group.declare({
  method: 'GET',
  path: '/orgs/{organizationId}/teams',
  operationId: 'listTeamsInOrganizationById',
  summary: 'List the teams of an organization.',
  role: 'read',
  params: organizationParams,
  query: listTeamsQuery,
  responses: {
    200: { description: 'Success', schema: listSchema(teamSchema) },
  },
});

export const createOrganizationTeam = group.declare({
  method: 'PUT',
  path: '/orgs/{organizationId}/teams',
  operationId: 'createOrganizationTeam',
  summary: 'Create a team in an organization.',
  role: 'admin',
  params: organizationParams,
  body: createTeamBody,
  responses: {
    201: { description: 'Created', schema: teamSchema },
  },
});

export const getTeamInOrganizationById = group.declare({
  method: 'GET',
  path: '/orgs/{organizationId}/teams/{teamId}',
  operationId: 'getTeamInOrganizationById',
  summary: 'Get a team by its ID.',
  role: 'read',
  params: teamParams,
  responses: {
    200: { description: 'Success', schema: teamSchema },
  },
});

export const removeTeamFromOrganizationById = group.declare({
  method: 'DELETE',
  path: '/orgs/{organizationId}/teams/{teamId}',
  operationId: 'removeTeamFromOrganizationById',
  summary: 'Delete a team.',
  role: 'admin',
  params: teamParams,
  responses: {
    204: { description: 'No content (also when there was nothing to delete)' },
    205: { description: 'Deleted' },
  },
});

export const updateTeamInOrganizationById = group.declare({
  method: 'PATCH',
  path: '/orgs/{organizationId}/teams/{teamId}',
  operationId: 'updateTeamInOrganizationById',
  summary: 'Update a team\'s title.',
  role: 'admin',
  params: teamParams,
  body: updateTeamBody,
  responses: {
    200: { description: 'Success', schema: teamSchema },
  },
});
