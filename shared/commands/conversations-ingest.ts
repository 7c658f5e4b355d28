/**
 * Ingesting a conversation (spec 4.17 POST /orgs/{organizationId}/conversations), idempotent by
 * id: the first ingestion of an id stores it; later ones with the same id change nothing.
 * One transaction writes the conversation, its issue (when the analyzer raises one) and the
 * cluster's counters (created on first use), so a cluster never counts an issue that is not
 * stored. Concurrent ingestions into one cluster retry on transaction conflicts.
 */
import { config } from '../config.ts';
import { nowIso, nowMs } from '../clock.ts';
import { sha256Hex } from '../ids.ts';
import { getRecord, transact, type TransactItem } from '../db/operations.ts';
import { ApiError } from '../http/errors.ts';
import { ENTITY_TYPE } from '../db/table.ts';
import {
  clustersPartition, conversationEntity, conversationIssueEntity, conversationsClusterEntity, weekNumber,
  type ConversationIssueItem, type ConversationItem, type ConversationMetadata, type ConversationPart,
} from '../db/entities/conversation.ts';
import { conversationAnalyzer } from './conversations-analyzer.ts';
import { retryOnConflict } from './retry.ts';

export interface IngestInput {
  orgId: string;
  ingestedBy: string;
  id: string;
  subject?: string;
  metadata?: { url?: string; attributes?: Record<string, string>; createdAt?: string };
  parts: ConversationPart[];
}

/** Issue id of a conversation: one issue per conversation, so it is derived from the conversation id. */
export const issueIdOf = (orgId: string, conversationId: string) => sha256Hex(`${orgId}\u0000${conversationId}`).slice(0, 20);

function sourceOf(metadata: ConversationMetadata): string {
  const named = metadata.attributes.source?.trim();
  if (named) return named.slice(0, 100);
  if (metadata.url) {
    try {
      return new URL(metadata.url).hostname || 'api';
    } catch {
      // validated as a URL; keep the default
    }
  }
  return 'api';
}

/** Returns true when this call stored the conversation, false when the id was ingested before. */
export async function ingestConversation(input: IngestInput): Promise<boolean> {
  return retryOnConflict(async () => {
    const key = conversationEntity.key({ orgId: input.orgId, conversationId: input.id });
    if (await getRecord(key, true)) return false;
    const now = nowIso();
    const metadata: ConversationMetadata = {
      ...(input.metadata?.url ? { url: input.metadata.url } : {}),
      attributes: input.metadata?.attributes ?? {},
      ...(input.metadata?.createdAt ? { createdAt: input.metadata.createdAt } : {}),
    };
    const conversation: ConversationItem = {
      id: input.id, orgId: input.orgId, subject: input.subject ?? '', source: sourceOf(metadata), metadata, parts: input.parts,
      createdAt: metadata.createdAt ?? now, processedAt: now, ingestedBy: input.ingestedBy,
    };
    const derived = conversationAnalyzer().analyze({ subject: conversation.subject, parts: conversation.parts });
    const writes: TransactItem[] = [];
    if (derived) {
      const issue: ConversationIssueItem = {
        id: issueIdOf(input.orgId, input.id), orgId: input.orgId, title: derived.title, summary: derived.summary,
        createdAt: conversation.createdAt, ingestedAt: now, conversation: input.id, cluster: derived.cluster.id,
      };
      conversation.issue = issue.id;
      writes.push({
        Put: {
          TableName: config.tableName,
          Item: conversationIssueEntity.toRecord({ orgId: input.orgId, issueId: issue.id }, issue),
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      });
      const cluster = derived.cluster;
      writes.push({
        Update: {
          TableName: config.tableName,
          Key: conversationsClusterEntity.key({ orgId: input.orgId, clusterId: cluster.id }),
          UpdateExpression: [
            'SET #id = if_not_exists(#id, :id), #org = if_not_exists(#org, :org), #label = if_not_exists(#label, :label),',
            '#icon = if_not_exists(#icon, :icon), #summary = if_not_exists(#summary, :summary), #status = if_not_exists(#status, :active),',
            '#created = if_not_exists(#created, :now), #updated = :now, #type = :type, #gpk = :gpk, #gsk = :gsk',
            'ADD #issues :one, #conversations :one, #source :one, #week :one',
          ].join(' '),
          ExpressionAttributeNames: {
            '#id': 'id', '#org': 'orgId', '#label': 'label', '#icon': 'icon', '#summary': 'summary', '#status': 'status',
            '#created': 'createdAt', '#updated': 'updatedAt', '#type': ENTITY_TYPE, '#gpk': 'gsi1pk', '#gsk': 'gsi1sk',
            '#issues': 'issues', '#conversations': 'conversations', '#source': `source:${conversation.source}`, '#week': `week:${weekNumber(nowMs())}`,
          },
          ExpressionAttributeValues: {
            ':id': cluster.id, ':org': input.orgId, ':label': cluster.label, ':icon': cluster.icon, ':summary': cluster.summary,
            ':active': 'active', ':now': now, ':type': 'conversations-cluster', ':gpk': clustersPartition(input.orgId),
            ':gsk': `${now}#${cluster.id}`, ':one': 1,
          },
        },
      });
    }
    writes.unshift({
      Put: { TableName: config.tableName, Item: conversationEntity.toRecord({ orgId: input.orgId, conversationId: input.id }, conversation), ConditionExpression: 'attribute_not_exists(pk)' },
    });
    // A failed condition means a concurrent ingestion of the same id won: retried, the read above answers false.
    await transact(writes, () => new ApiError(409, 'The conversation was ingested by another request'));
    return true;
  });
}
