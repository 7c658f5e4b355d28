import { operationGroup } from '../../shared/http/declare.ts';
import { createSpecBody, listSpecsQuery, organizationParams, patchSpecBody, putSpecBody, specLookupParams, specParams, versionParams } from './schemas.ts';
import { listSchema } from '../../shared/presenters/schemas/list.ts';
import { openAPISpecSchema } from '../../shared/presenters/schemas/openapi-spec.ts';
import { openAPISpecContentSchema, openAPISpecRawContentSchema, openAPISpecVersionSchema } from '../../shared/presenters/schemas/openapi-spec-version.ts';

/** The openapi group's operations (spec 4.6, and the public interface's spec versions), one declaration each (shared/http/declare.ts). */
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

// Spec versions: in the public interface (`openapi-versions`), not in the spec's table.
// `latest` is declared before `{versionId}` so that it is not read as a version id.

export const listOpenAPISpecVersions = group.declare({
  method: 'GET',
  path: '/orgs/{organizationId}/openapi/{specSlug}/versions',
  operationId: 'listOpenAPISpecVersions',
  summary: 'List the processed versions of an OpenAPI spec, newest first.',
  inSpec: false,
  role: 'read',
  params: specLookupParams,
  query: listSpecsQuery,
  responses: {
    200: { description: 'Success', schema: listSchema(openAPISpecVersionSchema) },
  },
});

export const getLatestOpenAPISpecVersion = group.declare({
  method: 'GET',
  path: '/orgs/{organizationId}/openapi/{specSlug}/versions/latest',
  operationId: 'getLatestOpenAPISpecVersion',
  summary: 'Get the latest processed version of an OpenAPI spec.',
  inSpec: false,
  role: 'read',
  params: specLookupParams,
  responses: {
    200: { description: 'Success', schema: openAPISpecVersionSchema },
  },
});

export const getLatestOpenAPISpecVersionContent = group.declare({
  method: 'GET',
  path: '/orgs/{organizationId}/openapi/{specSlug}/versions/latest/content',
  operationId: 'getLatestOpenAPISpecVersionContent',
  summary: 'Get the processed document of an OpenAPI spec\'s latest version.',
  inSpec: false,
  role: 'read',
  params: specLookupParams,
  responses: {
    200: { description: 'Success', schema: openAPISpecContentSchema },
  },
});

export const getLatestOpenAPISpecVersionContentRaw = group.declare({
  method: 'GET',
  path: '/orgs/{organizationId}/openapi/{specSlug}/versions/latest/content/raw',
  operationId: 'getLatestOpenAPISpecVersionContentRaw',
  summary: 'Get the source text of an OpenAPI spec\'s latest version, as submitted.',
  inSpec: false,
  role: 'read',
  params: specLookupParams,
  responses: {
    200: { description: 'Success', schema: openAPISpecRawContentSchema },
  },
});

export const getOpenAPISpecVersionById = group.declare({
  method: 'GET',
  path: '/orgs/{organizationId}/openapi/{specSlug}/versions/{versionId}',
  operationId: 'getOpenAPISpecVersionById',
  summary: 'Get a version of an OpenAPI spec by its ID.',
  inSpec: false,
  role: 'read',
  params: versionParams,
  responses: {
    200: { description: 'Success', schema: openAPISpecVersionSchema },
  },
});

export const getOpenAPISpecVersionContentById = group.declare({
  method: 'GET',
  path: '/orgs/{organizationId}/openapi/{specSlug}/versions/{versionId}/content',
  operationId: 'getOpenAPISpecVersionContentById',
  summary: 'Get the processed document of a version of an OpenAPI spec.',
  inSpec: false,
  role: 'read',
  params: versionParams,
  responses: {
    200: { description: 'Success', schema: openAPISpecContentSchema },
  },
});
