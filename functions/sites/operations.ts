import { operationGroup } from '../../shared/http/declare.ts';
import { adaptiveSchemaBody, addGroupSectionBody, addSiteSpaceBody, createGroupBody, createSectionBody, createShareLinkBody, createSiteBody, groupParams, groupSectionParams, listQuery, listSectionsQuery, listSiteSpacesQuery, listSitesQuery, moveSectionBody, moveSiteSpaceBody, organizationParams, sectionParams, shareKeyQuery, shareLinkParams, siteParams, siteSpaceParams, updateGroupBody, updateSectionBody, updateShareLinkBody, updateSiteBody, updateSiteSpaceBody } from './schemas.ts';

import { siteSearchBody } from './search-schemas.ts';
import { siteAdaptiveSchemaSchema, siteSchema, siteTemplateConditionsSchema } from '../../shared/presenters/schemas/site.ts';
import { listSchema } from '../../shared/presenters/schemas/list.ts';
import { searchSpaceResultSchema } from '../../shared/presenters/schemas/search.ts';
import { publishedSiteSchema } from '../../shared/presenters/schemas/published-site.ts';
import { siteSpaceSchema } from '../../shared/presenters/schemas/site-space.ts';
import { siteSectionSchema } from '../../shared/presenters/schemas/site-section.ts';
import { siteSectionGroupSchema } from '../../shared/presenters/schemas/site-section-group.ts';
import { shareLinkSchema } from '../../shared/presenters/schemas/share-link.ts';
import { siteCustomizationSchema } from '../../shared/presenters/schemas/site-customization.ts';
import { siteCustomizationBody, siteSpaceCustomizationBody } from './customization-schemas.ts';

/** The sites group's operations (spec 4.7), one declaration each (shared/http/declare.ts). */
export const group = operationGroup('sites', '4.7');

export const listSites = group.declare({
  method: 'GET',
  path: '/orgs/{organizationId}/sites',
  operationId: 'listSites',
  summary: 'List the sites of an organization.',
  role: 'read',
  params: organizationParams,
  query: listSitesQuery,
  responses: {
    200: { description: 'Success', schema: listSchema(siteSchema) },
  },
});

export const createSite = group.declare({
  method: 'POST',
  path: '/orgs/{organizationId}/sites',
  operationId: 'createSite',
  summary: 'Create a site in an organization.',
  role: 'create',
  params: organizationParams,
  body: createSiteBody,
  responses: {
    201: { description: 'Created', schema: siteSchema },
  },
});

export const getSiteById = group.declare({
  method: 'GET',
  path: '/orgs/{organizationId}/sites/{siteId}',
  operationId: 'getSiteById',
  summary: 'Get a site by its ID.',
  role: 'read',
  params: siteParams,
  responses: {
    200: { description: 'Success', schema: siteSchema },
  },
});

export const deleteSiteById = group.declare({
  method: 'DELETE',
  path: '/orgs/{organizationId}/sites/{siteId}',
  operationId: 'deleteSiteById',
  summary: 'Delete a site.',
  role: 'admin',
  params: siteParams,
  responses: {
    204: { description: 'No content (also when there was nothing to delete)' },
    205: { description: 'Deleted' },
  },
});

export const updateSiteById = group.declare({
  method: 'PATCH',
  path: '/orgs/{organizationId}/sites/{siteId}',
  operationId: 'updateSiteById',
  summary: 'Update a site\'s settings.',
  role: 'admin',
  params: siteParams,
  body: updateSiteBody,
  responses: {
    200: { description: 'Success', schema: siteSchema },
  },
});

export const getSiteAdaptiveSchema = group.declare({
  method: 'GET',
  path: '/orgs/{organizationId}/sites/{siteId}/adaptive-schema',
  operationId: 'getSiteAdaptiveSchema',
  summary: 'Get the adaptive content schema of a site.',
  role: 'read',
  params: siteParams,
  responses: {
    200: { description: 'Success', schema: siteAdaptiveSchemaSchema },
  },
});

export const updateSiteAdaptiveSchema = group.declare({
  method: 'PUT',
  path: '/orgs/{organizationId}/sites/{siteId}/adaptive-schema',
  operationId: 'updateSiteAdaptiveSchema',
  summary: 'Update the adaptive content schema of a site.',
  role: 'admin',
  params: siteParams,
  body: adaptiveSchemaBody,
  responses: {
    200: { description: 'Success', schema: siteAdaptiveSchemaSchema },
  },
});

export const listSiteAdaptiveTemplateConditions = group.declare({
  method: 'GET',
  path: '/orgs/{organizationId}/sites/{siteId}/adaptive-schema/template-conditions',
  operationId: 'listSiteAdaptiveTemplateConditions',
  summary: 'List the adaptive content condition templates of a site.',
  role: 'read',
  params: siteParams,
  responses: {
    200: { description: 'Success', schema: siteTemplateConditionsSchema },
  },
});

export const getPublishedContentSite = group.declare({
  method: 'GET',
  path: '/orgs/{organizationId}/sites/{siteId}/published',
  operationId: 'getPublishedContentSite',
  summary: 'Get the published profile of a site.',
  role: 'read',
  params: siteParams,
  query: shareKeyQuery,
  responses: {
    200: { description: 'Success', schema: publishedSiteSchema },
  },
});

export const publishSite = group.declare({
  method: 'POST',
  path: '/orgs/{organizationId}/sites/{siteId}/publish',
  operationId: 'publishSite',
  summary: 'Publish a site.',
  role: 'create',
  params: siteParams,
  responses: {
    200: { description: 'Success', schema: siteSchema },
  },
});

export const unpublishSite = group.declare({
  method: 'POST',
  path: '/orgs/{organizationId}/sites/{siteId}/unpublish',
  operationId: 'unpublishSite',
  summary: 'Unpublish a site (take it offline).',
  role: 'create',
  inSpec: false,
  params: siteParams,
  responses: {
    200: { description: 'The site, unpublished', schema: siteSchema },
  },
});

export const searchSiteContent = group.declare({
  method: 'POST',
  path: '/orgs/{organizationId}/sites/{siteId}/search',
  operationId: 'searchSiteContent',
  summary: 'Search the content of the site spaces of a site.',
  role: 'read',
  inSpec: false,
  params: siteParams,
  query: listQuery,
  body: siteSearchBody,
  responses: {
    200: { description: 'Spaces with matching pages, best first', schema: listSchema(searchSpaceResultSchema) },
  },
});

export const listSiteSpaces = group.declare({
  method: 'GET',
  path: '/orgs/{organizationId}/sites/{siteId}/site-spaces',
  operationId: 'listSiteSpaces',
  summary: 'List the site spaces of a site.',
  role: 'read',
  section: '4.8',
  params: siteParams,
  query: listSiteSpacesQuery,
  responses: {
    200: { description: 'Success', schema: listSchema(siteSpaceSchema) },
  },
});

export const addSpaceToSite = group.declare({
  method: 'POST',
  path: '/orgs/{organizationId}/sites/{siteId}/site-spaces',
  operationId: 'addSpaceToSite',
  summary: 'Add a space to a site.',
  role: 'create',
  section: '4.8',
  params: siteParams,
  body: addSiteSpaceBody,
  responses: {
    201: { description: 'Created', schema: siteSpaceSchema },
  },
});

export const deleteSiteSpaceById = group.declare({
  method: 'DELETE',
  path: '/orgs/{organizationId}/sites/{siteId}/site-spaces/{siteSpaceId}',
  operationId: 'deleteSiteSpaceById',
  summary: 'Remove a site space from a site.',
  role: 'create',
  section: '4.8',
  params: siteSpaceParams,
  responses: {
    204: { description: 'No content (also when there was nothing to delete)' },
  },
});

export const updateSiteSpaceById = group.declare({
  method: 'PATCH',
  path: '/orgs/{organizationId}/sites/{siteId}/site-spaces/{siteSpaceId}',
  operationId: 'updateSiteSpaceById',
  summary: 'Update a site space\'s path, condition or space.',
  role: 'create',
  section: '4.8',
  params: siteSpaceParams,
  body: updateSiteSpaceBody,
  responses: {
    200: { description: 'Success', schema: siteSpaceSchema },
  },
});

export const moveSiteSpace = group.declare({
  method: 'POST',
  path: '/orgs/{organizationId}/sites/{siteId}/site-spaces/{siteSpaceId}/move',
  operationId: 'moveSiteSpace',
  summary: 'Move a site space to a new position (deprecated).',
  role: 'create',
  section: '4.8',
  params: siteSpaceParams,
  body: moveSiteSpaceBody,
  responses: {
    200: { description: 'Success', schema: siteSpaceSchema },
  },
});

export const listSiteSections = group.declare({
  method: 'GET',
  path: '/orgs/{organizationId}/sites/{siteId}/sections',
  operationId: 'listSiteSections',
  summary: 'List the sections of a site.',
  role: 'read',
  section: '4.9',
  params: siteParams,
  query: listSectionsQuery,
  responses: {
    200: { description: 'Success', schema: listSchema(siteSectionSchema) },
  },
});

export const addSectionToSite = group.declare({
  method: 'POST',
  path: '/orgs/{organizationId}/sites/{siteId}/sections',
  operationId: 'addSectionToSite',
  summary: 'Add a section to a site.',
  role: 'create',
  section: '4.9',
  params: siteParams,
  body: createSectionBody,
  responses: {
    201: { description: 'Created', schema: siteSectionSchema },
  },
});

export const deleteSiteSectionById = group.declare({
  method: 'DELETE',
  path: '/orgs/{organizationId}/sites/{siteId}/sections/{siteSectionId}',
  operationId: 'deleteSiteSectionById',
  summary: 'Delete a section of a site.',
  role: 'create',
  section: '4.9',
  params: sectionParams,
  responses: {
    204: { description: 'No content (also when there was nothing to delete)' },
    205: { description: 'Deleted' },
  },
});

export const updateSiteSectionById = group.declare({
  method: 'PATCH',
  path: '/orgs/{organizationId}/sites/{siteId}/sections/{siteSectionId}',
  operationId: 'updateSiteSectionById',
  summary: 'Update a section of a site.',
  role: 'create',
  section: '4.9',
  params: sectionParams,
  body: updateSectionBody,
  responses: {
    200: { description: 'Success', schema: siteSectionSchema },
  },
});

export const moveSiteSection = group.declare({
  method: 'POST',
  path: '/orgs/{organizationId}/sites/{siteId}/sections/{siteSectionId}/move',
  operationId: 'moveSiteSection',
  summary: 'Move a section of a site to a new position.',
  role: 'create',
  section: '4.9',
  params: sectionParams,
  body: moveSectionBody,
  responses: {
    200: { description: 'Success', schema: siteSectionSchema },
  },
});

export const listSiteSectionGroups = group.declare({
  method: 'GET',
  path: '/orgs/{organizationId}/sites/{siteId}/section-groups',
  operationId: 'listSiteSectionGroups',
  summary: 'List the section groups of a site.',
  role: 'read',
  section: '4.10',
  params: siteParams,
  query: listQuery,
  responses: {
    200: { description: 'Success', schema: listSchema(siteSectionGroupSchema) },
  },
});

export const addSectionGroupToSite = group.declare({
  method: 'POST',
  path: '/orgs/{organizationId}/sites/{siteId}/section-groups',
  operationId: 'addSectionGroupToSite',
  summary: 'Add a section group to a site.',
  role: 'create',
  section: '4.10',
  params: siteParams,
  body: createGroupBody,
  responses: {
    201: { description: 'Created', schema: siteSectionGroupSchema },
  },
});

export const deleteSiteSectionGroupById = group.declare({
  method: 'DELETE',
  path: '/orgs/{organizationId}/sites/{siteId}/section-groups/{siteSectionGroupId}',
  operationId: 'deleteSiteSectionGroupById',
  summary: 'Delete a section group of a site.',
  role: 'create',
  section: '4.10',
  params: groupParams,
  responses: {
    204: { description: 'No content (also when there was nothing to delete)' },
  },
});

export const updateSiteSectionGroupById = group.declare({
  method: 'PATCH',
  path: '/orgs/{organizationId}/sites/{siteId}/section-groups/{siteSectionGroupId}',
  operationId: 'updateSiteSectionGroupById',
  summary: 'Update a section group of a site.',
  role: 'create',
  section: '4.10',
  params: groupParams,
  body: updateGroupBody,
  responses: {
    200: { description: 'Success', schema: siteSectionGroupSchema },
  },
});

export const addSectionToSiteSectionGroup = group.declare({
  method: 'POST',
  path: '/orgs/{organizationId}/sites/{siteId}/section-groups/{siteSectionGroupId}/sections',
  operationId: 'addSectionToSiteSectionGroup',
  summary: 'Add a section to a section group.',
  role: 'create',
  section: '4.10',
  params: groupParams,
  body: addGroupSectionBody,
  responses: {
    201: { description: 'Created', schema: siteSectionGroupSchema },
  },
});

export const removeSectionFromSiteSectionGroup = group.declare({
  method: 'DELETE',
  path: '/orgs/{organizationId}/sites/{siteId}/section-groups/{siteSectionGroupId}/sections/{siteSectionId}',
  operationId: 'removeSectionFromSiteSectionGroup',
  summary: 'Remove a section from a section group.',
  role: 'create',
  section: '4.10',
  params: groupSectionParams,
  responses: {
    204: { description: 'No content (also when there was nothing to delete)' },
    205: { description: 'Deleted' },
  },
});

export const listSiteShareLinks = group.declare({
  method: 'GET',
  path: '/orgs/{organizationId}/sites/{siteId}/share-links',
  operationId: 'listSiteShareLinks',
  summary: 'List the share links of a site.',
  role: 'admin',
  section: '4.11',
  params: siteParams,
  query: listQuery,
  responses: {
    200: { description: 'Success', schema: listSchema(shareLinkSchema) },
  },
});

export const createSiteShareLink = group.declare({
  method: 'POST',
  path: '/orgs/{organizationId}/sites/{siteId}/share-links',
  operationId: 'createSiteShareLink',
  summary: 'Create a share link for a site.',
  role: 'admin',
  section: '4.11',
  params: siteParams,
  body: createShareLinkBody,
  responses: {
    201: { description: 'Created', schema: shareLinkSchema },
  },
});

export const deleteSiteShareLinkById = group.declare({
  method: 'DELETE',
  path: '/orgs/{organizationId}/sites/{siteId}/share-links/{shareLinkId}',
  operationId: 'deleteSiteShareLinkById',
  summary: 'Delete a share link of a site.',
  role: 'admin',
  section: '4.11',
  params: shareLinkParams,
  responses: {
    204: { description: 'No content (also when there was nothing to delete)' },
  },
});

export const updateSiteShareLinkById = group.declare({
  method: 'PATCH',
  path: '/orgs/{organizationId}/sites/{siteId}/share-links/{shareLinkId}',
  operationId: 'updateSiteShareLinkById',
  summary: 'Update a share link of a site.',
  role: 'admin',
  section: '4.11',
  params: shareLinkParams,
  body: updateShareLinkBody,
  responses: {
    200: { description: 'Success', schema: shareLinkSchema },
  },
});

// Customization (beyond spec 4.7, as @gitbook/api has them): the site's settings and a site
// space's overrides, applied by the reader (functions/sites/customization.ts).
export const getSiteCustomizationById = group.declare({
  method: 'GET',
  path: '/orgs/{organizationId}/sites/{siteId}/customization',
  operationId: 'getSiteCustomizationById',
  summary: 'Get the customization settings of a site.',
  inSpec: false,
  role: 'read',
  params: siteParams,
  responses: {
    200: { description: 'Success', schema: siteCustomizationSchema },
  },
});

export const updateSiteCustomizationById = group.declare({
  method: 'PUT',
  path: '/orgs/{organizationId}/sites/{siteId}/customization',
  operationId: 'updateSiteCustomizationById',
  summary: 'Replace the customization settings of a site.',
  inSpec: false,
  role: 'admin',
  params: siteParams,
  body: siteCustomizationBody,
  responses: {
    200: { description: 'Success', schema: siteCustomizationSchema },
  },
});

export const getSiteSpaceCustomizationById = group.declare({
  method: 'GET',
  path: '/orgs/{organizationId}/sites/{siteId}/site-spaces/{siteSpaceId}/customization',
  operationId: 'getSiteSpaceCustomizationById',
  summary: 'Get the customization settings of a site space (the site\'s, with its overrides).',
  inSpec: false,
  role: 'read',
  params: siteSpaceParams,
  responses: {
    200: { description: 'Success', schema: siteCustomizationSchema },
  },
});

export const overrideSiteSpaceCustomizationById = group.declare({
  method: 'PATCH',
  path: '/orgs/{organizationId}/sites/{siteId}/site-spaces/{siteSpaceId}/customization',
  operationId: 'overrideSiteSpaceCustomizationById',
  summary: 'Override customization settings of the site for one site space (null resets a field).',
  inSpec: false,
  role: 'admin',
  params: siteSpaceParams,
  body: siteSpaceCustomizationBody,
  responses: {
    200: { description: 'Success', schema: siteCustomizationSchema },
  },
});

export const deleteSiteSpaceCustomizationById = group.declare({
  method: 'DELETE',
  path: '/orgs/{organizationId}/sites/{siteId}/site-spaces/{siteSpaceId}/customization',
  operationId: 'deleteSiteSpaceCustomizationById',
  summary: 'Remove a site space\'s overrides: it follows the site\'s customization again.',
  inSpec: false,
  role: 'admin',
  params: siteSpaceParams,
  responses: {
    204: { description: 'No content (there were no overrides)' },
    205: { description: 'Overrides removed' },
  },
});
