import { operationGroup } from '../../shared/http/declare.ts';
import { linksQuery } from '../../shared/content/links/responses.ts';
import { createSpaceBody, getSpaceQuery, listQuery, moveSpaceBody, organizationParams, spaceParams, transferSpaceBody, updateSpaceBody } from './schemas.ts';
import { spaceSchema } from '../../shared/presenters/schemas/space.ts';
import { contentLinksSchema } from '../../shared/presenters/schemas/content-links.ts';
import { listSchema } from '../../shared/presenters/schemas/list.ts';

/** The spaces group's operations (spec 4.2), one declaration each (shared/http/declare.ts). */
export const group = operationGroup('spaces', '4.2');

export const getSpaceById = group.declare({
  method: 'GET',
  path: '/spaces/{spaceId}',
  operationId: 'getSpaceById',
  summary: 'Get a space by its ID.',
  role: 'read',
  params: spaceParams,
  query: getSpaceQuery,
  responses: {
    200: { description: 'Success', schema: spaceSchema },
  },
});

export const deleteSpaceById = group.declare({
  method: 'DELETE',
  path: '/spaces/{spaceId}',
  operationId: 'deleteSpaceById',
  summary: 'Delete a space (permanently removed after 7 days).',
  role: 'admin',
  params: spaceParams,
  responses: {
    204: { description: 'No content (also when there was nothing to delete)' },
    205: { description: 'Deleted' },
  },
});

export const updateSpaceById = group.declare({
  method: 'PATCH',
  path: '/spaces/{spaceId}',
  operationId: 'updateSpaceById',
  summary: 'Update a space\'s title, settings or merge rules.',
  role: { rule: 'edit on the space (not locked, unless admin); admin for editMode, defaultLevel and mergeRules' },
  params: spaceParams,
  body: updateSpaceBody,
  responses: {
    200: { description: 'Success', schema: spaceSchema },
  },
});

export const duplicateSpace = group.declare({
  method: 'POST',
  path: '/spaces/{spaceId}/duplicate',
  operationId: 'duplicateSpace',
  summary: 'Create a full copy of a space.',
  role: { rule: 'read on the space, and create where it lives (its collection, or the organization at the root)' },
  params: spaceParams,
  responses: {
    201: { description: 'Created', schema: spaceSchema },
  },
});

export const restoreSpace = group.declare({
  method: 'POST',
  path: '/spaces/{spaceId}/restore',
  operationId: 'restoreSpace',
  summary: 'Restore a space deleted in the last 7 days.',
  role: 'admin',
  params: spaceParams,
  responses: {
    200: { description: 'Success', schema: spaceSchema },
  },
});

export const moveSpace = group.declare({
  method: 'POST',
  path: '/spaces/{spaceId}/move',
  operationId: 'moveSpace',
  summary: 'Move a space to a collection or position.',
  role: { rule: 'admin on the space, and create on the new parent collection (or the organization at the root)' },
  params: spaceParams,
  body: moveSpaceBody,
  responses: {
    200: { description: 'Success', schema: spaceSchema },
  },
});

export const transferSpace = group.declare({
  method: 'POST',
  path: '/spaces/{spaceId}/transfer',
  operationId: 'transferSpace',
  summary: 'Transfer a space to another organization or collection.',
  role: { rule: 'admin on the space, and create on the target collection (or the target organization at the root)' },
  params: spaceParams,
  body: transferSpaceBody,
  responses: {
    200: { description: 'Success', schema: spaceSchema },
  },
});

export const listSpaceLinks = group.declare({
  method: 'GET',
  path: '/spaces/{spaceId}/links',
  operationId: 'listSpaceLinks',
  summary: 'List the links found in a space\'s content.',
  role: 'read',
  params: spaceParams,
  query: linksQuery,
  responses: {
    200: { description: 'Success', schema: contentLinksSchema },
  },
});

export const listSpacesInOrganizationById = group.declare({
  method: 'GET',
  path: '/orgs/{organizationId}/spaces',
  operationId: 'listSpacesInOrganizationById',
  summary: 'List the spaces of an organization.',
  role: 'member',
  params: organizationParams,
  query: listQuery,
  responses: {
    200: { description: 'Success', schema: listSchema(spaceSchema) },
  },
});

export const createSpace = group.declare({
  method: 'POST',
  path: '/orgs/{organizationId}/spaces',
  operationId: 'createSpace',
  summary: 'Create a space in an organization.',
  role: { rule: 'create on the parent collection (or the organization at the root)' },
  inSpec: false,
  params: organizationParams,
  body: createSpaceBody,
  responses: {
    201: { description: 'Created', schema: spaceSchema },
  },
});
