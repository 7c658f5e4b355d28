import { operationGroup } from '../../shared/http/declare.ts';
import { contentEditBodyLimits } from '../../shared/content/limits.ts';
import { linksQuery } from '../../shared/content/links/responses.ts';
import { listQuery, searchQuery } from '../../shared/http/schemas.ts';
import { applyTemplateBody, changeRequestFileParams, changeRequestPageParams, changeRequestParams, contentChangesBody, contentQuery, contentUpdateQuery, fileParams, filesQuery, pageParams, pagePathParams, pageQuery, revisionParams, spaceParams } from './schemas.ts';

import { revisionPageParams } from './schemas.ts';
import { listSchema } from '../../shared/presenters/schemas/list.ts';
import { revisionFileSchema, revisionPageWithContentSchema, revisionPagesSchema, revisionSchema, updateChangeRequestContentSchema } from '../../shared/presenters/schemas/revision.ts';
import { contentLinksSchema, pageLocationSchema, pageMetaLinksSchema } from '../../shared/presenters/schemas/content-links.ts';
import { searchPageResultSchema } from '../../shared/presenters/schemas/search.ts';

/** The content group's operations (spec 4.3), one declaration each (shared/http/declare.ts). */
export const group = operationGroup('content', '4.3');

export const searchSpaceContent = group.declare({
  method: 'GET',
  path: '/spaces/{spaceId}/search',
  operationId: 'searchSpaceContent',
  summary: 'Search the content of a space.',
  role: 'read',
  params: spaceParams,
  query: searchQuery,
  responses: {
    200: { description: 'Success', schema: listSchema(searchPageResultSchema) },
  },
});

export const getCurrentRevision = group.declare({
  method: 'GET',
  path: '/spaces/{spaceId}/content',
  operationId: 'getCurrentRevision',
  summary: 'Get the current content revision of a space.',
  role: 'read',
  params: spaceParams,
  query: contentQuery,
  responses: {
    200: { description: 'Success', schema: revisionSchema },
  },
});

export const applyTemplateToSpace = group.declare({
  method: 'POST',
  path: '/spaces/{spaceId}/content/template',
  operationId: 'applyTemplateToSpace',
  summary: 'Apply a content template to a space.',
  role: 'edit',
  params: spaceParams,
  body: applyTemplateBody,
  responses: {
    201: { description: 'Created' },
  },
});

export const listPages = group.declare({
  method: 'GET',
  path: '/spaces/{spaceId}/content/pages',
  operationId: 'listPages',
  summary: 'List the pages of a space.',
  role: 'read',
  params: spaceParams,
  query: contentQuery,
  responses: {
    200: { description: 'Success', schema: revisionPagesSchema },
  },
});

export const listFiles = group.declare({
  method: 'GET',
  path: '/spaces/{spaceId}/content/files',
  operationId: 'listFiles',
  summary: 'List the files of a space.',
  role: 'read',
  params: spaceParams,
  query: filesQuery,
  responses: {
    200: { description: 'Success', schema: listSchema(revisionFileSchema) },
  },
});

export const getFileById = group.declare({
  method: 'GET',
  path: '/spaces/{spaceId}/content/files/{fileId}',
  operationId: 'getFileById',
  summary: 'Get a file of a space by its ID.',
  role: 'read',
  params: spaceParams,
  query: contentQuery,
  responses: {
    200: { description: 'Success', schema: revisionFileSchema },
  },
});

export const listSpaceFileBacklinks = group.declare({
  method: 'GET',
  path: '/spaces/{spaceId}/content/files/{fileId}/backlinks',
  operationId: 'listSpaceFileBacklinks',
  summary: 'List the backlinks to a file of a space.',
  role: 'read',
  params: fileParams,
  query: listQuery,
  responses: {
    200: { description: 'Success', schema: listSchema(pageLocationSchema) },
  },
});

export const getPageById = group.declare({
  method: 'GET',
  path: '/spaces/{spaceId}/content/page/{pageId}',
  operationId: 'getPageById',
  summary: 'Get a page of a space by its ID.',
  role: 'read',
  params: spaceParams,
  query: pageQuery,
  responses: {
    200: { description: 'Success', schema: revisionPageWithContentSchema },
  },
});

export const listPageLinksInSpace = group.declare({
  method: 'GET',
  path: '/spaces/{spaceId}/content/page/{pageId}/links',
  operationId: 'listPageLinksInSpace',
  summary: 'List the links found in a page of a space.',
  role: 'read',
  params: pageParams,
  query: linksQuery,
  responses: {
    200: { description: 'Success', schema: contentLinksSchema },
  },
});

export const getPageByPath = group.declare({
  method: 'GET',
  path: '/spaces/{spaceId}/content/path/{pagePath+}',
  operationId: 'getPageByPath',
  summary: 'Get a page of the primary content by its path.',
  role: 'read',
  inSpec: false,
  params: pagePathParams,
  query: pageQuery,
  responses: {
    200: { description: 'Success', schema: revisionPageWithContentSchema },
  },
});

export const getRevisionById = group.declare({
  method: 'GET',
  path: '/spaces/{spaceId}/revisions/{revisionId}',
  operationId: 'getRevisionById',
  summary: 'Get a revision of the space by its id.',
  role: 'read',
  inSpec: false,
  params: revisionParams,
  query: contentQuery,
  responses: {
    200: { description: 'Success', schema: revisionSchema },
  },
});

export const listPagesInRevisionById = group.declare({
  method: 'GET',
  path: '/spaces/{spaceId}/revisions/{revisionId}/pages',
  operationId: 'listPagesInRevisionById',
  summary: 'List the pages of a revision.',
  role: 'read',
  inSpec: false,
  params: revisionParams,
  query: contentQuery,
  responses: {
    200: { description: 'Success', schema: revisionPagesSchema },
  },
});

export const listFilesInRevisionById = group.declare({
  method: 'GET',
  path: '/spaces/{spaceId}/revisions/{revisionId}/files',
  operationId: 'listFilesInRevisionById',
  summary: 'List the files of a revision.',
  role: 'read',
  inSpec: false,
  params: revisionParams,
  query: filesQuery,
  responses: {
    200: { description: 'Success', schema: listSchema(revisionFileSchema) },
  },
});

export const getFileInRevisionById = group.declare({
  method: 'GET',
  path: '/spaces/{spaceId}/revisions/{revisionId}/files/{fileId}',
  operationId: 'getFileInRevisionById',
  summary: 'Get a file of a revision.',
  role: 'read',
  inSpec: false,
  params: revisionParams,
  query: contentQuery,
  responses: {
    200: { description: 'Success', schema: revisionFileSchema },
  },
});

export const getPageInRevisionById = group.declare({
  method: 'GET',
  path: '/spaces/{spaceId}/revisions/{revisionId}/page/{pageId}',
  operationId: 'getPageInRevisionById',
  summary: 'Get a page of a revision.',
  role: 'read',
  inSpec: false,
  params: revisionParams,
  query: pageQuery,
  responses: {
    200: { description: 'Success', schema: revisionPageWithContentSchema },
  },
});

export const getRevisionOfChangeRequestById = group.declare({
  method: 'GET',
  path: '/spaces/{spaceId}/change-requests/{changeRequestId}/content',
  operationId: 'getRevisionOfChangeRequestById',
  summary: 'Get the content revision of a change request.',
  role: 'read',
  section: '4.4',
  params: changeRequestParams,
  query: contentQuery,
  responses: {
    200: { description: 'Success', schema: revisionSchema },
  },
});

export const listPagesInChangeRequest = group.declare({
  method: 'GET',
  path: '/spaces/{spaceId}/change-requests/{changeRequestId}/content/pages',
  operationId: 'listPagesInChangeRequest',
  summary: 'List the pages of a change request.',
  role: 'read',
  section: '4.4',
  params: changeRequestParams,
  query: contentQuery,
  responses: {
    200: { description: 'Success', schema: revisionPagesSchema },
  },
});

export const listFilesInChangeRequestById = group.declare({
  method: 'GET',
  path: '/spaces/{spaceId}/change-requests/{changeRequestId}/content/files',
  operationId: 'listFilesInChangeRequestById',
  summary: 'List the files of a change request.',
  role: 'read',
  section: '4.4',
  params: changeRequestParams,
  query: filesQuery,
  responses: {
    200: { description: 'Success', schema: listSchema(revisionFileSchema) },
  },
});

export const getFileInChangeRequestById = group.declare({
  method: 'GET',
  path: '/spaces/{spaceId}/change-requests/{changeRequestId}/content/files/{fileId}',
  operationId: 'getFileInChangeRequestById',
  summary: 'Get a file of a change request by its ID.',
  role: 'read',
  section: '4.4',
  params: changeRequestParams,
  query: contentQuery,
  responses: {
    200: { description: 'Success', schema: revisionFileSchema },
  },
});

export const listChangeRequestFileBacklinks = group.declare({
  method: 'GET',
  path: '/spaces/{spaceId}/change-requests/{changeRequestId}/content/files/{fileId}/backlinks',
  operationId: 'listChangeRequestFileBacklinks',
  summary: 'List the backlinks to a file of a change request.',
  role: 'read',
  section: '4.4',
  params: changeRequestFileParams,
  query: listQuery,
  responses: {
    200: { description: 'Success', schema: listSchema(pageLocationSchema) },
  },
});

export const getPageInChangeRequestById = group.declare({
  method: 'GET',
  path: '/spaces/{spaceId}/change-requests/{changeRequestId}/content/page/{pageId}',
  operationId: 'getPageInChangeRequestById',
  summary: 'Get a page of a change request by its ID.',
  role: 'read',
  section: '4.4',
  params: changeRequestParams,
  query: pageQuery,
  responses: {
    200: { description: 'Success', schema: revisionPageWithContentSchema },
  },
});

export const listPageLinksInChangeRequest = group.declare({
  method: 'GET',
  path: '/spaces/{spaceId}/change-requests/{changeRequestId}/content/page/{pageId}/links',
  operationId: 'listPageLinksInChangeRequest',
  summary: 'List the links found in a page of a change request.',
  role: 'read',
  section: '4.4',
  params: changeRequestPageParams,
  query: linksQuery,
  responses: {
    200: { description: 'Success', schema: contentLinksSchema },
  },
});

export const updateChangeRequestContent = group.declare({
  method: 'POST',
  path: '/spaces/{spaceId}/change-requests/{changeRequestId}/content',
  operationId: 'updateChangeRequestContent',
  summary: 'Apply a batch of content changes to a change request.',
  role: 'edit',
  section: '4.4',
  inSpec: false,
  params: changeRequestParams,
  query: contentUpdateQuery,
  body: contentChangesBody,
  bodyLimits: contentEditBodyLimits,
  responses: {
    200: { description: 'The change request (compat, the default), or with compat=false the pages and files the batch affected', schema: updateChangeRequestContentSchema },
  },
});

// Beyond the spec: the public interface's page backlinks and meta links (functions/content/links.ts, page-meta-links.ts).

export const listSpacePageBacklinks = group.declare({
  method: 'GET',
  path: '/spaces/{spaceId}/content/page/{pageId}/backlinks',
  operationId: 'listSpacePageBacklinks',
  summary: 'List the places of other pages that link to a page of a space.',
  role: 'read',
  inSpec: false,
  params: pageParams,
  query: listQuery,
  responses: {
    200: { description: 'Where the page is linked from', schema: listSchema(pageLocationSchema) },
  },
});

export const listChangeRequestPageBacklinks = group.declare({
  method: 'GET',
  path: '/spaces/{spaceId}/change-requests/{changeRequestId}/content/page/{pageId}/backlinks',
  operationId: 'listChangeRequestPageBacklinks',
  summary: 'List the places of other pages that link to a page of a change request.',
  role: 'read',
  section: '4.4',
  inSpec: false,
  params: changeRequestPageParams,
  query: listQuery,
  responses: {
    200: { description: 'Where the page is linked from', schema: listSchema(pageLocationSchema) },
  },
});

export const listSpacePageMetaLinks = group.declare({
  method: 'GET',
  path: '/spaces/{spaceId}/content/page/{pageId}/meta-links',
  operationId: 'listSpacePageMetaLinks',
  summary: 'Get the meta links (language alternates) of a page of a space.',
  role: 'read',
  inSpec: false,
  params: pageParams,
  responses: {
    200: { description: 'The meta links of the page', schema: pageMetaLinksSchema },
  },
});

export const listChangeRequestPageMetaLinks = group.declare({
  method: 'GET',
  path: '/spaces/{spaceId}/change-requests/{changeRequestId}/content/page/{pageId}/meta-links',
  operationId: 'listChangeRequestPageMetaLinks',
  summary: 'Get the meta links of a page of a change request.',
  role: 'read',
  section: '4.4',
  inSpec: false,
  params: changeRequestPageParams,
  responses: {
    200: { description: 'The meta links of the page', schema: pageMetaLinksSchema },
  },
});

export const listRevisionPageMetaLinks = group.declare({
  method: 'GET',
  path: '/spaces/{spaceId}/revisions/{revisionId}/page/{pageId}/meta-links',
  operationId: 'listRevisionPageMetaLinks',
  summary: 'Get the meta links of a page of a revision.',
  role: 'read',
  inSpec: false,
  params: revisionPageParams,
  responses: {
    200: { description: 'The meta links of the page', schema: pageMetaLinksSchema },
  },
});
