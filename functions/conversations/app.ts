import type { Context } from 'hono';
import { groupApp, operationRoutes, route } from '../../shared/http/route.ts';
import * as op from './operations.ts';
import type { AppEnv } from '../../shared/http/env.ts';
import { notFound } from '../../shared/http/errors.ts';
import { policies } from '../../shared/policies/index.ts';
import { loadOrgAccess } from '../../shared/policies/access.ts';
import {
  conversationEntity, conversationIssueEntity, conversationsClusterEntity, type ConversationIssueItem,
} from '../../shared/db/entities/conversation.ts';
import type { Where } from '../../shared/db/conditions.ts';
import { presentList } from '../../shared/presenters/list.ts';
import {
  presentConversation, presentConversationDetails, presentConversationIssue, presentConversationsCluster,
} from '../../shared/presenters/conversation.ts';
import { ingestConversation } from '../../shared/commands/conversations/ingest.ts';

/**
 * Conversations (spec 4.17), base /orgs/{organizationId}. Ingesting needs the organization
 * permission `ingestConversations` (edit role and above); reading needs a non-guest membership.
 * Issues and clusters are derived at ingestion (shared/commands/conversations/analyzer.ts).
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
  const result = await conversationsClusterEntity.query.byOrg({ orgId: organizationId }, {
    forward: order === 'asc', where: status ? (w) => w.eq('status', status) : undefined,
  }).page({ limit, cursor: page });
  return c.json(presentList(result.items.map((cluster) => presentConversationsCluster(cluster)), result.next));
});

route(routes, op.listConversations, async (c) => {
  const { organizationId } = c.req.valid('param');
  const { page, limit, source } = c.req.valid('query');
  await readerAccess(c, organizationId);
  const result = await conversationEntity.query.byOrg({ orgId: organizationId }, {
    forward: false, where: source !== undefined ? (w) => w.eq('source', source) : undefined,
  }).page({ limit, cursor: page });
  return c.json(presentList(result.items.map((conversation) => presentConversation(conversation)), result.next));
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
  const options = { forward: false, where: conversation !== undefined ? (w: Where<ConversationIssueItem>) => w.eq('conversation', conversation) : undefined };
  const query = cluster !== undefined
    ? conversationIssueEntity.query.byCluster({ orgId: organizationId, cluster }, options)
    : conversationIssueEntity.query.byOrg({ orgId: organizationId }, options);
  const result = await query.page({ limit, cursor: page });
  return c.json(presentList(await withConversations(c, organizationId, result.items), result.next));
});

route(routes, op.getConversationsIssueById, async (c) => {
  const { organizationId, issueId } = c.req.valid('param');
  await readerAccess(c, organizationId);
  const issue = await conversationIssueEntity.get({ orgId: organizationId, issueId });
  const [item] = issue ? await withConversations(c, organizationId, [issue]) : [];
  if (!item) throw notFound(`No conversation issue found with id ${issueId}`);
  return c.json(item);
});

route(routes, op.getConversationById, async (c) => {
  const { organizationId, conversationId } = c.req.valid('param');
  await readerAccess(c, organizationId);
  const conversation = await conversationEntity.get({ orgId: organizationId, conversationId });
  if (!conversation) throw notFound(`No conversation found with id ${conversationId}`);
  return c.json(presentConversationDetails(conversation));
});

export const app = groupApp(op.group, routes);
