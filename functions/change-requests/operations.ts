import { operationGroup } from '../../shared/http/declare.ts';
import { getReviewQuery, listRequestedReviewersQuery, listReviewsQuery, requestReviewersBody, submitReviewBody } from './review-schemas.ts';
import { requestedReviewerParams, reviewParams } from './schemas.ts';
import { changeRequestParams, createChangeRequestBody, listOrganizationChangeRequestsQuery, listSpaceChangeRequestsQuery, organizationParams, pdfQuery, spaceParams, updateChangeRequestBody } from './schemas.ts';
import { listSchema } from '../../shared/presenters/schemas/list.ts';
import { changeRequestMergeResultSchema, changeRequestSchema, changeRequestUpdateResultSchema, pdfExportSchema } from '../../shared/presenters/schemas/change-request.ts';
import { changeRequestReviewSchema, requestedReviewerSchema, requestedReviewersSchema } from '../../shared/presenters/schemas/change-request-review.ts';

/** The change-requests group's operations (spec 4.4), one declaration each (shared/http/declare.ts). */
export const group = operationGroup('change-requests', '4.4');

export const listChangeRequestsForSpace = group.declare({
  method: 'GET',
  path: '/spaces/{spaceId}/change-requests',
  operationId: 'listChangeRequestsForSpace',
  summary: 'List the change requests of a space.',
  role: 'read',
  params: spaceParams,
  query: listSpaceChangeRequestsQuery,
  responses: {
    200: { description: 'Success', schema: listSchema(changeRequestSchema) },
  },
});

export const createChangeRequest = group.declare({
  method: 'POST',
  path: '/spaces/{spaceId}/change-requests',
  operationId: 'createChangeRequest',
  summary: 'Create a change request in a space.',
  role: 'edit',
  params: spaceParams,
  body: createChangeRequestBody,
  responses: {
    201: { description: 'Created', schema: changeRequestSchema },
  },
});

export const getChangeRequestById = group.declare({
  method: 'GET',
  path: '/spaces/{spaceId}/change-requests/{changeRequestId}',
  operationId: 'getChangeRequestById',
  summary: 'Get a change request by its ID or number.',
  role: 'read',
  params: changeRequestParams,
  responses: {
    200: { description: 'Success', schema: changeRequestSchema },
  },
});

export const updateChangeRequestById = group.declare({
  method: 'PATCH',
  path: '/spaces/{spaceId}/change-requests/{changeRequestId}',
  operationId: 'updateChangeRequestById',
  summary: 'Update a change request\'s subject, status or description.',
  role: { rule: 'its author (with edit) or review on the space' },
  params: changeRequestParams,
  body: updateChangeRequestBody,
  responses: {
    200: { description: 'Success', schema: changeRequestSchema },
  },
});

export const mergeChangeRequest = group.declare({
  method: 'POST',
  path: '/spaces/{spaceId}/change-requests/{changeRequestId}/merge',
  operationId: 'mergeChangeRequest',
  summary: 'Merge a change request into the space\'s primary content.',
  role: { rule: 'edit on the space, and the space\'s merge rules pass' },
  params: changeRequestParams,
  responses: {
    200: { description: 'Success', schema: changeRequestMergeResultSchema },
  },
});

export const updateChangeRequest = group.declare({
  method: 'POST',
  path: '/spaces/{spaceId}/change-requests/{changeRequestId}/update',
  operationId: 'updateChangeRequest',
  summary: 'Update a change request with the space\'s primary content.',
  role: 'edit',
  params: changeRequestParams,
  responses: {
    200: { description: 'Success', schema: changeRequestUpdateResultSchema },
  },
});

export const getChangeRequestPDF = group.declare({
  method: 'GET',
  path: '/spaces/{spaceId}/change-requests/{changeRequestId}/pdf',
  operationId: 'getChangeRequestPDF',
  summary: 'Get a URL to a PDF export of a change request.',
  role: 'read',
  params: changeRequestParams,
  query: pdfQuery,
  responses: {
    200: { description: 'URL of the PDF (a presigned download, valid for an hour)', schema: pdfExportSchema },
  },
});

export const getSpacePDF = group.declare({
  method: 'GET',
  path: '/spaces/{spaceId}/pdf',
  operationId: 'getSpacePDF',
  summary: 'Get a URL to a PDF export of a space\'s primary content.',
  role: 'read',
  inSpec: false,
  params: spaceParams,
  query: pdfQuery,
  responses: {
    200: { description: 'URL of the PDF (a presigned download, valid for an hour)', schema: pdfExportSchema },
  },
});

export const listChangeRequestsForOrganization = group.declare({
  method: 'GET',
  path: '/orgs/{organizationId}/change-requests',
  operationId: 'listChangeRequestsForOrganization',
  summary: 'List the change requests of an organization.',
  role: 'member',
  params: organizationParams,
  query: listOrganizationChangeRequestsQuery,
  responses: {
    200: { description: 'Success', schema: listSchema(changeRequestSchema) },
  },
});

export const getRequestedReviewersByChangeRequestId = group.declare({
  method: 'GET',
  path: '/spaces/{spaceId}/change-requests/{changeRequestId}/requested-reviewers',
  operationId: 'getRequestedReviewersByChangeRequestId',
  summary: 'List the reviewers requested on a change request.',
  role: 'read',
  inSpec: false,
  params: changeRequestParams,
  query: listRequestedReviewersQuery,
  responses: {
    200: { description: 'Success', schema: listSchema(requestedReviewerSchema) },
  },
});

export const requestReviewersForChangeRequest = group.declare({
  method: 'POST',
  path: '/spaces/{spaceId}/change-requests/{changeRequestId}/requested-reviewers',
  operationId: 'requestReviewersForChangeRequest',
  summary: 'Request reviews of a change request from users.',
  role: 'edit',
  inSpec: false,
  params: changeRequestParams,
  body: requestReviewersBody,
  responses: {
    200: { description: 'Success', schema: requestedReviewersSchema },
  },
});

export const removeRequestedReviewerFromChangeRequest = group.declare({
  method: 'DELETE',
  path: '/spaces/{spaceId}/change-requests/{changeRequestId}/requested-reviewers/{userId}',
  operationId: 'removeRequestedReviewerFromChangeRequest',
  summary: 'Remove a requested reviewer from a change request.',
  role: { rule: 'edit on the space, or the requested user themself' },
  inSpec: false,
  params: requestedReviewerParams,
  responses: {
    204: { description: 'No content (also when there was nothing to delete)' },
    205: { description: 'Deleted' },
  },
});

export const getReviewsByChangeRequestId = group.declare({
  method: 'GET',
  path: '/spaces/{spaceId}/change-requests/{changeRequestId}/reviews',
  operationId: 'getReviewsByChangeRequestId',
  summary: 'List the reviews of a change request.',
  role: 'read',
  inSpec: false,
  params: changeRequestParams,
  query: listReviewsQuery,
  responses: {
    200: { description: 'Success', schema: listSchema(changeRequestReviewSchema) },
  },
});

export const submitChangeRequestReview = group.declare({
  method: 'POST',
  path: '/spaces/{spaceId}/change-requests/{changeRequestId}/reviews',
  operationId: 'submitChangeRequestReview',
  summary: 'Submit a review (approved or changes-requested) of a change request.',
  role: { rule: 'review on the space, or read with a pending request for the caller\'s review; never the author' },
  inSpec: false,
  params: changeRequestParams,
  body: submitReviewBody,
  responses: {
    201: { description: 'Created', schema: changeRequestReviewSchema },
  },
});

export const getChangeRequestReviewById = group.declare({
  method: 'GET',
  path: '/spaces/{spaceId}/change-requests/{changeRequestId}/reviews/{reviewId}',
  operationId: 'getChangeRequestReviewById',
  summary: 'Get a review of a change request.',
  role: 'read',
  inSpec: false,
  params: reviewParams,
  query: getReviewQuery,
  responses: {
    200: { description: 'Success', schema: changeRequestReviewSchema },
  },
});
