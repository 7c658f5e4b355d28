import { operationGroup } from '../../shared/http/declare.ts';
import { createTranslationBody, listTranslationsQuery, organizationParams, translationParams, updateTranslationBody } from './schemas.ts';
import { listSchema } from '../../shared/presenters/schemas/list.ts';
import { translationSchema } from '../../shared/presenters/schemas/translation.ts';

/** The translations group's operations (spec 4.16), one declaration each (shared/http/declare.ts). */
export const group = operationGroup('translations', '4.16');

export const listTranslations = group.declare({
  method: 'GET',
  path: '/orgs/{organizationId}/translations',
  operationId: 'listTranslations',
  summary: 'List the translations of an organization.',
  role: 'read',
  params: organizationParams,
  query: listTranslationsQuery,
  responses: {
    200: { description: 'Success', schema: listSchema(translationSchema) },
  },
});

export const createTranslation = group.declare({
  method: 'POST',
  path: '/orgs/{organizationId}/translations',
  operationId: 'createTranslation',
  summary: 'Create a translation in an organization.',
  role: 'create',
  params: organizationParams,
  body: createTranslationBody,
  responses: {
    201: { description: 'Created', schema: translationSchema },
  },
});

export const getTranslation = group.declare({
  method: 'GET',
  path: '/orgs/{organizationId}/translations/{translationId}',
  operationId: 'getTranslation',
  summary: 'Get a translation by its ID.',
  role: 'read',
  params: translationParams,
  responses: {
    200: { description: 'Success', schema: translationSchema },
  },
});

export const updateTranslation = group.declare({
  method: 'PUT',
  path: '/orgs/{organizationId}/translations/{translationId}',
  operationId: 'updateTranslation',
  summary: 'Update a translation\'s instructions.',
  role: 'create',
  params: translationParams,
  body: updateTranslationBody,
  responses: {
    200: { description: 'Success', schema: translationSchema },
  },
});

export const deleteTranslation = group.declare({
  method: 'DELETE',
  path: '/orgs/{organizationId}/translations/{translationId}',
  operationId: 'deleteTranslation',
  summary: 'Delete a translation.',
  role: 'create',
  params: translationParams,
  responses: {
    204: { description: 'No content (also when there was nothing to delete)' },
    205: { description: 'Deleted' },
  },
});

export const runTranslation = group.declare({
  method: 'POST',
  path: '/orgs/{organizationId}/translations/{translationId}/run',
  operationId: 'runTranslation',
  summary: 'Run a translation again.',
  role: 'create',
  params: translationParams,
  responses: {
    204: { description: 'The run is queued' },
  },
});
