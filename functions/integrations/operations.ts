import { operationGroup } from '../../shared/http/declare.ts';
import { devBody, eventParams, installBody, integrationParams, listEventsQuery, listInstallationsQuery, listIntegrationsQuery, listTargetsQuery, publishBody } from './schemas.ts';
import { listSchema } from '../../shared/presenters/schemas/list.ts';
import { integrationSchema } from '../../shared/presenters/schemas/integration.ts';
import { installationSchema, siteInstallationSchema, spaceInstallationSchema } from '../../shared/presenters/schemas/installation.ts';
import { integrationEventDetailSchema, integrationEventSchema } from '../../shared/presenters/schemas/integration-event.ts';

/** The integrations group's operations (spec 4.18), one declaration each (shared/http/declare.ts). */
export const group = operationGroup('integrations', '4.18');

export const listIntegrations = group.declare({
  method: 'GET',
  path: '/integrations',
  operationId: 'listIntegrations',
  summary: 'List integrations.',
  role: 'authenticated',
  query: listIntegrationsQuery,
  responses: {
    200: { description: 'Success', schema: listSchema(integrationSchema) },
  },
});

export const getIntegrationByName = group.declare({
  method: 'GET',
  path: '/integrations/{integrationName}',
  operationId: 'getIntegrationByName',
  summary: 'Get an integration by its name.',
  role: { rule: 'any valid token for a public or unlisted integration; a private one: members of the owning organization' },
  params: integrationParams,
  responses: {
    200: { description: 'Success', schema: integrationSchema },
  },
});

export const publishIntegration = group.declare({
  method: 'POST',
  path: '/integrations/{integrationName}',
  operationId: 'publishIntegration',
  summary: 'Publish or update an integration.',
  role: { rule: 'admin in the publishing organization (the owning one, once published)' },
  params: integrationParams,
  body: publishBody,
  responses: {
    200: { description: 'Success', schema: integrationSchema },
  },
});

export const unpublishIntegration = group.declare({
  method: 'DELETE',
  path: '/integrations/{integrationName}',
  operationId: 'unpublishIntegration',
  summary: 'Unpublish an integration.',
  role: 'admin',
  params: integrationParams,
  responses: {
    204: { description: 'No content (also when there was nothing to delete)' },
    205: { description: 'Deleted' },
  },
});

export const listIntegrationInstallations = group.declare({
  method: 'GET',
  path: '/integrations/{integrationName}/installations',
  operationId: 'listIntegrationInstallations',
  summary: 'List the installations of an integration.',
  role: 'admin',
  params: integrationParams,
  query: listInstallationsQuery,
  responses: {
    200: { description: 'Success', schema: listSchema(installationSchema) },
  },
});

export const installIntegration = group.declare({
  method: 'POST',
  path: '/integrations/{integrationName}/installations',
  operationId: 'installIntegration',
  summary: 'Install an integration in an organization.',
  role: { rule: 'admin in the organization it is installed into' },
  params: integrationParams,
  body: installBody,
  responses: {
    201: { description: 'Created', schema: installationSchema },
  },
});

export const listIntegrationEvents = group.declare({
  method: 'GET',
  path: '/integrations/{integrationName}/events',
  operationId: 'listIntegrationEvents',
  summary: 'List the events of an integration.',
  role: 'admin',
  params: integrationParams,
  query: listEventsQuery,
  responses: {
    200: { description: 'Success', schema: listSchema(integrationEventSchema) },
  },
});

export const getIntegrationEvent = group.declare({
  method: 'GET',
  path: '/integrations/{integrationName}/events/{eventId}',
  operationId: 'getIntegrationEvent',
  summary: 'Get an integration event by its ID.',
  role: 'admin',
  params: eventParams,
  responses: {
    200: { description: 'Success', schema: integrationEventDetailSchema },
  },
});

export const listIntegrationSpaceInstallations = group.declare({
  method: 'GET',
  path: '/integrations/{integrationName}/spaces',
  operationId: 'listIntegrationSpaceInstallations',
  summary: 'List the space installations of an integration.',
  role: 'admin',
  params: integrationParams,
  query: listTargetsQuery,
  responses: {
    200: { description: 'Success', schema: listSchema(spaceInstallationSchema) },
  },
});

export const listIntegrationSiteInstallations = group.declare({
  method: 'GET',
  path: '/integrations/{integrationName}/sites',
  operationId: 'listIntegrationSiteInstallations',
  summary: 'List the site installations of an integration.',
  role: 'admin',
  params: integrationParams,
  query: listTargetsQuery,
  responses: {
    200: { description: 'Success', schema: listSchema(siteInstallationSchema) },
  },
});

export const setIntegrationDevelopmentMode = group.declare({
  method: 'PUT',
  path: '/integrations/{integrationName}/dev',
  operationId: 'setIntegrationDevelopmentMode',
  summary: 'Set the development mode of an integration.',
  role: 'admin',
  params: integrationParams,
  body: devBody,
  responses: {
    204: { description: 'Done' },
  },
});
