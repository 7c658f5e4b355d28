import { operationGroup } from '../../shared/http/declare.ts';
import { conversationParams, ingestConversationBody, issueParams, listClustersQuery, listConversationsQuery, listIssuesQuery, organizationParams } from './schemas.ts';
import { listSchema } from '../../shared/presenters/schemas/list.ts';
import { conversationDetailsSchema, conversationSchema, conversationsClusterSchema, issueWithConversationSchema } from '../../shared/presenters/schemas/conversation.ts';

/** The conversations group's operations (spec 4.17), one declaration each (shared/http/declare.ts). */
export const group = operationGroup('conversations', '4.17');

export const listConversationsIssuesClusters = group.declare({
  method: 'GET',
  path: '/orgs/{organizationId}/conversations-clusters',
  operationId: 'listConversationsIssuesClusters',
  summary: 'List the conversation issue clusters of an organization.',
  role: 'read',
  params: organizationParams,
  query: listClustersQuery,
  responses: {
    200: { description: 'Success', schema: listSchema(conversationsClusterSchema) },
  },
});

export const listConversations = group.declare({
  method: 'GET',
  path: '/orgs/{organizationId}/conversations',
  operationId: 'listConversations',
  summary: 'List the conversations of an organization.',
  role: 'read',
  params: organizationParams,
  query: listConversationsQuery,
  responses: {
    200: { description: 'Success', schema: listSchema(conversationSchema) },
  },
});

export const ingestConversation = group.declare({
  method: 'POST',
  path: '/orgs/{organizationId}/conversations',
  operationId: 'ingestConversation',
  summary: 'Ingest a conversation into an organization.',
  role: 'edit',
  params: organizationParams,
  body: ingestConversationBody,
  responses: {
    204: { description: 'Done, no content' },
  },
});

export const listConversationsIssues = group.declare({
  method: 'GET',
  path: '/orgs/{organizationId}/conversations-issues',
  operationId: 'listConversationsIssues',
  summary: 'List the conversation issues of an organization.',
  role: 'read',
  params: organizationParams,
  query: listIssuesQuery,
  responses: {
    200: { description: 'Success', schema: listSchema(issueWithConversationSchema) },
  },
});

export const getConversationsIssueById = group.declare({
  method: 'GET',
  path: '/orgs/{organizationId}/conversations-issues/{issueId}',
  operationId: 'getConversationsIssueById',
  summary: 'Get a conversation issue by its ID.',
  role: 'read',
  params: issueParams,
  responses: {
    200: { description: 'Success', schema: issueWithConversationSchema },
  },
});

export const getConversationById = group.declare({
  method: 'GET',
  path: '/orgs/{organizationId}/conversations/{conversationId}',
  operationId: 'getConversationById',
  summary: 'Get a conversation by its ID.',
  role: 'read',
  params: conversationParams,
  responses: {
    200: { description: 'Success', schema: conversationDetailsSchema },
  },
});
