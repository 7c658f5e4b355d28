import { operationGroup } from '../../shared/http/declare.ts';
import { createProviderBody, listProvidersQuery, organizationParams, providerParams, updateProviderBody } from './schemas.ts';
import { listSchema } from '../../shared/presenters/schemas/list.ts';
import { samlProviderSchema, ssoLoginOptionsSchema } from '../../shared/presenters/schemas/saml-provider.ts';

/** The sso group's operations (spec 4.15), one declaration each (shared/http/declare.ts). */
export const group = operationGroup('sso', '4.15');

export const listSAMLProvidersInOrganizationById = group.declare({
  method: 'GET',
  path: '/orgs/{organizationId}/saml',
  operationId: 'listSAMLProvidersInOrganizationById',
  summary: 'List the SAML providers of an organization.',
  role: 'admin',
  params: organizationParams,
  query: listProvidersQuery,
  responses: {
    200: { description: 'Success', schema: listSchema(samlProviderSchema) },
  },
});

export const createOrganizationSAMLProvider = group.declare({
  method: 'POST',
  path: '/orgs/{organizationId}/saml',
  operationId: 'createOrganizationSAMLProvider',
  summary: 'Create a SAML provider in an organization.',
  role: 'admin',
  params: organizationParams,
  body: createProviderBody,
  responses: {
    201: { description: 'Created', schema: samlProviderSchema },
  },
});

export const getOrganizationSAMLProviderById = group.declare({
  method: 'GET',
  path: '/orgs/{organizationId}/saml/{samlProviderId}',
  operationId: 'getOrganizationSAMLProviderById',
  summary: 'Get a SAML provider by its ID.',
  role: 'admin',
  params: providerParams,
  responses: {
    200: { description: 'Success', schema: samlProviderSchema },
  },
});

export const deleteOrganizationSAMLProvider = group.declare({
  method: 'DELETE',
  path: '/orgs/{organizationId}/saml/{samlProviderId}',
  operationId: 'deleteOrganizationSAMLProvider',
  summary: 'Delete a SAML provider.',
  role: 'admin',
  params: providerParams,
  responses: {
    204: { description: 'No content (also when there was nothing to delete)' },
    205: { description: 'Deleted' },
  },
});

export const updateOrganizationSAMLProvider = group.declare({
  method: 'PATCH',
  path: '/orgs/{organizationId}/saml/{samlProviderId}',
  operationId: 'updateOrganizationSAMLProvider',
  summary: 'Update a SAML provider.',
  role: 'admin',
  params: providerParams,
  body: updateProviderBody,
  responses: {
    200: { description: 'Success', schema: samlProviderSchema },
  },
});

export const listSSOProviderLoginsInOrganization = group.declare({
  method: 'GET',
  path: '/orgs/{organizationId}/sso',
  operationId: 'listSSOProviderLoginsInOrganization',
  summary: 'List the SSO login providers of an organization.',
  role: 'authenticated',
  params: organizationParams,
  responses: {
    200: { description: 'Success', schema: ssoLoginOptionsSchema },
  },
});
