import { operationGroup } from '../../shared/http/declare.ts';
import { collectionParams, createCollectionBody, listCollectionsQuery, listQuery, moveCollectionBody, organizationParams, transferCollectionBody, updateCollectionBody } from './schemas.ts';
import { collectionSchema } from '../../shared/presenters/schemas/collection.ts';
import { listSchema } from '../../shared/presenters/schemas/list.ts';
import { spaceSchema } from '../../shared/presenters/schemas/space.ts';

/** The collections group's operations (spec 4.1), one declaration each (shared/http/declare.ts). */
export const group = operationGroup('collections', '4.1');

export const getCollectionById = group.declare({
  method: 'GET',
  path: '/collections/{collectionId}',
  operationId: 'getCollectionById',
  summary: 'Get a collection by its ID.',
  role: 'read',
  params: collectionParams,
  responses: {
    200: { description: 'Success', schema: collectionSchema },
  },
});

export const deleteCollectionById = group.declare({
  method: 'DELETE',
  path: '/collections/{collectionId}',
  operationId: 'deleteCollectionById',
  summary: 'Delete a collection.',
  role: 'admin',
  params: collectionParams,
  responses: {
    204: { description: 'No content (also when there was nothing to delete)' },
  },
});

export const updateCollectionById = group.declare({
  method: 'PATCH',
  path: '/collections/{collectionId}',
  operationId: 'updateCollectionById',
  summary: 'Update a collection\'s title, description or default role.',
  role: 'admin',
  params: collectionParams,
  body: updateCollectionBody,
  responses: {
    200: { description: 'Success', schema: collectionSchema },
  },
});

export const listSpacesInCollectionById = group.declare({
  method: 'GET',
  path: '/collections/{collectionId}/spaces',
  operationId: 'listSpacesInCollectionById',
  summary: 'List the spaces in a collection.',
  role: 'read',
  params: collectionParams,
  query: listQuery,
  responses: {
    200: { description: 'Success', schema: listSchema(spaceSchema) },
  },
});

export const moveCollection = group.declare({
  method: 'POST',
  path: '/collections/{collectionId}/move',
  operationId: 'moveCollection',
  summary: 'Move a collection to a new parent or position.',
  role: { rule: 'admin on the collection, and create on the new parent collection (none at the root)' },
  params: collectionParams,
  body: moveCollectionBody,
  responses: {
    200: { description: 'Success', schema: collectionSchema },
  },
});

export const transferCollection = group.declare({
  method: 'POST',
  path: '/collections/{collectionId}/transfer',
  operationId: 'transferCollection',
  summary: 'Transfer a collection to another organization.',
  role: { rule: 'admin on the collection, and create in the target organization' },
  params: collectionParams,
  body: transferCollectionBody,
  responses: {
    200: { description: 'Success', schema: collectionSchema },
  },
});

export const listCollectionsInOrganizationById = group.declare({
  method: 'GET',
  path: '/orgs/{organizationId}/collections',
  operationId: 'listCollectionsInOrganizationById',
  summary: 'List the collections of an organization.',
  role: 'member',
  params: organizationParams,
  query: listCollectionsQuery,
  responses: {
    200: { description: 'Success', schema: listSchema(collectionSchema) },
  },
});

export const createCollection = group.declare({
  method: 'POST',
  path: '/orgs/{organizationId}/collections',
  operationId: 'createCollection',
  summary: 'Create a collection in an organization.',
  role: { rule: 'create on the parent collection (or the organization at the root)' },
  params: organizationParams,
  body: createCollectionBody,
  responses: {
    201: { description: 'Created', schema: collectionSchema },
  },
});
