import { operationGroup } from '../../shared/http/declare.ts';
import { createSpecBody, listSpecsQuery, organizationParams, patchSpecBody, putSpecBody, specLookupParams, specParams } from './schemas.ts';
import { listSchema } from '../../shared/presenters/schemas/list.ts';
import { openAPISpecSchema } from '../../shared/presenters/schemas/openapi-spec.ts';

/** The openapi group's operations (spec 4.6), one declaration each (shared/http/declare.ts). */
export const group = operationGroup('openapi', '4.6');

export const listOpenAPISpecs = group.declare({
  method: 'GET',
  path: '/orgs/{organizationId}/openapi',
  operationId: 'listOpenAPISpecs',
  summary: 'List the OpenAPI specs of an organization.',
  role: 'read',
  params: organizationParams,
  query: listSpecsQuery,
  responses: {
    200: { description: 'Success', schema: listSchema(openAPISpecSchema) },
  },
});

export const createOpenAPISpec = group.declare({
  method: 'POST',
  path: '/orgs/{organizationId}/openapi',
  operationId: 'createOpenAPISpec',
  summary: 'Create an OpenAPI spec in an organization.',
  role: 'create',
  params: organizationParams,
  body: createSpecBody,
  responses: {
    201: { description: 'Created', schema: openAPISpecSchema },
  },
});

export const getOpenAPISpecBySlug = group.declare({
  method: 'GET',
  path: '/orgs/{organizationId}/openapi/{specSlug}',
  operationId: 'getOpenAPISpecBySlug',
  summary: 'Get an OpenAPI spec by its slug.',
  role: 'read',
  params: specLookupParams,
  responses: {
    200: { description: 'Success', schema: openAPISpecSchema },
  },
});

export const createOrUpdateOpenAPISpecBySlug = group.declare({
  method: 'PUT',
  path: '/orgs/{organizationId}/openapi/{specSlug}',
  operationId: 'createOrUpdateOpenAPISpecBySlug',
  summary: 'Create or update an OpenAPI spec by its slug.',
  role: 'create',
  params: specParams,
  body: putSpecBody,
  responses: {
    200: { description: 'Success', schema: openAPISpecSchema },
    201: { description: 'Created', schema: openAPISpecSchema },
  },
});

export const deleteOpenAPISpecBySlug = group.declare({
  method: 'DELETE',
  path: '/orgs/{organizationId}/openapi/{specSlug}',
  operationId: 'deleteOpenAPISpecBySlug',
  summary: 'Delete an OpenAPI spec.',
  role: 'create',
  params: specLookupParams,
  responses: {
    204: { description: 'No content (also when there was nothing to delete)' },
  },
});

export const updateOpenAPISpecBySlug = group.declare({
  method: 'PATCH',
  path: '/orgs/{organizationId}/openapi/{specSlug}',
  operationId: 'updateOpenAPISpecBySlug',
  summary: 'Update an OpenAPI spec\'s visibility.',
  role: 'create',
  params: specLookupParams,
  body: patchSpecBody,
  responses: {
    200: { description: 'Success', schema: openAPISpecSchema },
  },
});
