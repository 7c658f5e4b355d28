import type { Context } from 'hono';
import { groupApp, operationRoutes, route } from '../../shared/http/route.ts';
import * as op from './operations.ts';
import type { AppEnv } from '../../shared/http/env.ts';
import { notFound } from '../../shared/http/errors.ts';
import { policies } from '../../shared/policies/index.ts';
import { loadOrgAccess } from '../../shared/policies/access.ts';
import { getRecord, queryPage, type QueryOptions } from '../../shared/db/operations.ts';
import {
  clusterIssuesPartition, clustersPartition, conversationEntity, conversationIssueEntity, conversationsClusterEntity,
  conversationsPartition, issuesPartition, type ConversationIssueItem,
} from '../../shared/db/entities/conversation.ts';
import { presentList } from '../../shared/presenters/list.ts';
import {
  presentConversation, presentConversationDetails, presentConversationIssue, presentConversationsCluster,
} from '../../shared/presenters/conversation.ts';
import { ingestConversation } from '../../shared/commands/conversations-ingest.ts';

/**
 * Conversations (spec 4.17), base /orgs/{organizationId}. Ingesting needs the organization
 * permission `ingestConversations` (edit role and above); reading needs a non-guest membership.
 * Issues and clusters are derived at ingestion (shared/commands/conversations-analyzer.ts).
 */
const routes = operationRoutes();

async function readerAccess(c: Context<AppEnv>, organizationId: string) {
  const access = await loadOrgAccess(c.var.scope, organizationId);
  policies.organization.authorize(access, 'browse');
  return access;
}

route(routes, op.listConversationsIssuesClusters, async (c) => {
  const { organizationId } = c.req.valid('param');
  const { page, limit, order, status } = c.req.valid('query');
  await readerAccess(c, organizationId);
  const result = await queryPage({
    index: 'gsi1', partition: clustersPartition(organizationId), limit, cursor: page, forward: order === 'asc',
    filter: status ? { expression: '#status = :status', names: { '#status': 'status' }, values: { ':status': status } } : undefined,
  });
  return c.json(presentList(result.records.map((r) => presentConversationsCluster(conversationsClusterEntity.fromRecord(r))), result.next));
});

route(routes, op.listConversations, async (c) => {
  const { organizationId } = c.req.valid('param');
  const { page, limit, source } = c.req.valid('query');
  await readerAccess(c, organizationId);
  const result = await queryPage({
    index: 'gsi1', partition: conversationsPartition(organizationId), limit, cursor: page, forward: false,
    filter: source !== undefined ? { expression: '#source = :source', names: { '#source': 'source' }, values: { ':source': source } } : undefined,
  });
  return c.json(presentList(result.records.map((r) => presentConversation(conversationEntity.fromRecord(r))), result.next));
});

route(routes, op.ingestConversation, async (c) => {
  const { organizationId } = c.req.valid('param');
  const body = c.req.valid('json');
  policies.organization.authorize(await loadOrgAccess(c.var.scope, organizationId), 'ingestConversations');
  await ingestConversation({ orgId: organizationId, ingestedBy: c.get('caller').userId, ...body });
  // 204 whether this request stored it or the id was ingested before (idempotent by id).
  return c.body(null, 204);
});

/** Pairs issues with their conversations, as the issue reads answer. */
async function withConversations(c: Context<AppEnv>, orgId: string, issues: ConversationIssueItem[]) {
  const loader = c.get('loader');
  const keys = issues.map((i) => conversationEntity.key({ orgId, conversationId: i.conversation }));
  await loader.load(keys);
  return issues.flatMap((issue, i) => {
    const record = loader.peek(keys[i]!);
    return record ? [{ issue: presentConversationIssue(issue), conversation: presentConversation(conversationEntity.fromRecord(record)) }] : [];
  });
}

route(routes, op.listConversationsIssues, async (c) => {
  const { organizationId } = c.req.valid('param');
  const { page, limit, cluster, conversation } = c.req.valid('query');
  await readerAccess(c, organizationId);
  const options: QueryOptions = cluster !== undefined
    ? { index: 'gsi2', partition: clusterIssuesPartition(organizationId, cluster), limit, cursor: page, forward: false }
    : { index: 'gsi1', partition: issuesPartition(organizationId), limit, cursor: page, forward: false };
  if (conversation !== undefined) {
    options.filter = { expression: '#conversation = :conversation', names: { '#conversation': 'conversation' }, values: { ':conversation': conversation } };
  }
  const result = await queryPage(options);
  const issues = result.records.map((r) => conversationIssueEntity.fromRecord(r));
  return c.json(presentList(await withConversations(c, organizationId, issues), result.next));
});

route(routes, op.getConversationsIssueById, async (c) => {
  const { organizationId, issueId } = c.req.valid('param');
  await readerAccess(c, organizationId);
  const record = await getRecord(conversationIssueEntity.key({ orgId: organizationId, issueId }));
  const [item] = record ? await withConversations(c, organizationId, [conversationIssueEntity.fromRecord(record)]) : [];
  if (!item) throw notFound(`No conversation issue found with id ${issueId}`);
  return c.json(item);
});

route(routes, op.getConversationById, async (c) => {
  const { organizationId, conversationId } = c.req.valid('param');
  await readerAccess(c, organizationId);
  const record = await getRecord(conversationEntity.key({ orgId: organizationId, conversationId }));
  if (!record) throw notFound(`No conversation found with id ${conversationId}`);
  return c.json(presentConversationDetails(conversationEntity.fromRecord(record)));
});

export const app = groupApp(op.group, routes);
