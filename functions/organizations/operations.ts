import { operationGroup } from '../../shared/http/declare.ts';
import { emailDomainParams, inviteParams, listQuery, organizationParams, searchQuery, updateAgentInstructionsBody, updateOrganizationBody } from './schemas.ts';
import { listSchema } from '../../shared/presenters/schemas/list.ts';
import { agentInstructionsSchema, emailDomainOrganizationsSchema, organizationSchema } from '../../shared/presenters/schemas/organization.ts';
import { searchSpaceResultSchema } from '../../shared/presenters/schemas/search.ts';
import { userSchema } from '../../shared/presenters/schemas/user.ts';

/** The organizations group's operations (spec 4.12), one declaration each (shared/http/declare.ts). */
export const group = operationGroup('organizations', '4.12');

export const listOrganizationsForAuthenticatedUser = group.declare({
  method: 'GET',
  path: '/orgs',
  operationId: 'listOrganizationsForAuthenticatedUser',
  summary: 'List the organizations of the authenticated user.',
  role: 'authenticated',
  query: listQuery,
  responses: {
    200: { description: 'Success', schema: listSchema(organizationSchema) },
  },
});

export const getOrganizationById = group.declare({
  method: 'GET',
  path: '/orgs/{organizationId}',
  operationId: 'getOrganizationById',
  summary: 'Get an organization by its ID.',
  role: 'member',
  params: organizationParams,
  responses: {
    200: { description: 'Success', schema: organizationSchema },
  },
});

export const updateOrganizationById = group.declare({
  method: 'PATCH',
  path: '/orgs/{organizationId}',
  operationId: 'updateOrganizationById',
  summary: 'Update an organization\'s settings.',
  role: 'admin',
  params: organizationParams,
  body: updateOrganizationBody,
  responses: {
    200: { description: 'Success', schema: organizationSchema },
  },
});

export const deleteOrganizationInviteById = group.declare({
  method: 'DELETE',
  path: '/orgs/{organizationId}/link-invites/{inviteId}',
  operationId: 'deleteOrganizationInviteById',
  summary: 'Delete an organization invite link.',
  role: 'admin',
  params: inviteParams,
  responses: {
    204: { description: 'No content (also when there was nothing to delete)' },
  },
});

export const joinOrganization = group.declare({
  method: 'POST',
  path: '/orgs/{organizationId}/join',
  operationId: 'joinOrganization',
  summary: 'Join an organization through a matching email domain.',
  role: { rule: 'a verified email whose domain is one of the organization\'s emailDomains' },
  params: organizationParams,
  responses: {
    204: { description: 'Done, no content' },
  },
});

export const searchOrganizationContent = group.declare({
  method: 'GET',
  path: '/orgs/{organizationId}/search',
  operationId: 'searchOrganizationContent',
  summary: 'Search the content of an organization.',
  role: 'member',
  params: organizationParams,
  query: searchQuery,
  responses: {
    200: { description: 'Success', schema: listSchema(searchSpaceResultSchema) },
  },
});

export const getOrganizationAgentInstructions = group.declare({
  method: 'GET',
  path: '/orgs/{organizationId}/agent-instructions',
  operationId: 'getOrganizationAgentInstructions',
  summary: 'Get the agent instructions of an organization.',
  role: 'member',
  params: organizationParams,
  responses: {
    200: { description: 'Success', schema: agentInstructionsSchema },
  },
});

export const updateOrganizationAgentInstructions = group.declare({
  method: 'PUT',
  path: '/orgs/{organizationId}/agent-instructions',
  operationId: 'updateOrganizationAgentInstructions',
  summary: 'Update the agent instructions of an organization.',
  role: 'admin',
  params: organizationParams,
  body: updateAgentInstructionsBody,
  responses: {
    200: { description: 'Success', schema: agentInstructionsSchema },
  },
});

export const getOrganizationsForEmailDomain = group.declare({
  method: 'GET',
  path: '/email-domains/{emailDomain}/orgs',
  operationId: 'getOrganizationsForEmailDomain',
  summary: 'List the organizations that allow an email domain.',
  role: 'authenticated',
  params: emailDomainParams,
  responses: {
    200: { description: 'Success', schema: emailDomainOrganizationsSchema },
  },
});

export const getAuthenticatedUser = group.declare({
  method: 'GET',
  path: '/user',
  operationId: 'getAuthenticatedUser',
  summary: 'Get the profile of the authenticated user.',
  role: 'authenticated',
  inSpec: false,
  responses: {
    200: { description: 'Success', schema: userSchema },
  },
});
