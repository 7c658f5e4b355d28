/**
 * Conversations (spec 4.17), in the organization's partition:
 *   ORG#<org> / CONVERSATION#<id>   an ingested conversation with its parts and metadata;
 *                                   gsi1 ORG#<org>#CONVERSATIONS by `<processedAt>#<id>` (newest first).
 *   ORG#<org> / CONVISSUE#<id>      an issue derived from one conversation;
 *                                   gsi1 ORG#<org>#CONVISSUES, gsi2 ORG#<org>#CONVCLUSTER#<cluster>#ISSUES,
 *                                   both by `<ingestedAt>#<id>`.
 *   ORG#<org> / CONVCLUSTERING      when the org's issues were last clustered (the job's watermark).
 *   ORG#<org> / CONVCLUSTER#<id>    a cluster of issues, rewritten by each clustering;
 *                                   gsi1 ORG#<org>#CONVCLUSTERS by `<updatedAt>#<id>`. Counters per
 *                                   source (`source:<name>`) and per week of the issues' `createdAt`
 *                                   (`week:<n>`, n = epoch weeks) are attributes of the cluster item.
 */
import { defineEntity } from '../entity.ts';

export interface ConversationPart {
  type: 'message';
  role: string;
  body: string;
}

export interface ConversationMetadata {
  url?: string;
  attributes: Record<string, string>;
  createdAt?: string;
}

export interface ConversationItem {
  id: string;
  orgId: string;
  subject: string;
  /** `metadata.attributes.source`, else the host of `metadata.url`, else `api`. */
  source: string;
  metadata: ConversationMetadata;
  parts: ConversationPart[];
  /** `metadata.createdAt` when given, else the ingestion time. */
  createdAt: string;
  /** When it was ingested and analysed. */
  processedAt: string;
  ingestedBy: string;
  /** The issue derived from it, when it raised one. */
  issue?: string;
}

export const conversationEntity = defineEntity<ConversationItem>()({
  type: 'conversation',
  key: ({ orgId, conversationId }: { orgId: string; conversationId: string }) => ({ pk: `ORG#${orgId}`, sk: `CONVERSATION#${conversationId}` }),
  indexes: {
    byOrg: { index: 'gsi1', pk: (a: { orgId: string }) => conversationsPartition(a.orgId), sk: (c) => `${c.processedAt}#${c.id}` },
  },
});

export interface ConversationIssueItem {
  id: string;
  orgId: string;
  title: string;
  summary: string;
  createdAt: string;
  ingestedAt: string;
  conversation: string;
  /** Set by the clustering job (shared/commands/conversations/recluster.ts); absent until it ran. */
  cluster?: string;
  /** What clustering reads (subject and user messages, bounded), the kind, and the conversation's source. */
  text?: string;
  kind?: 'error' | 'question';
  source?: string;
}

export const conversationIssueEntity = defineEntity<ConversationIssueItem>()({
  type: 'conversation-issue',
  key: ({ orgId, issueId }: { orgId: string; issueId: string }) => ({ pk: `ORG#${orgId}`, sk: `CONVISSUE#${issueId}` }),
  indexes: {
    byOrg: { index: 'gsi1', pk: (a: { orgId: string }) => issuesPartition(a.orgId), sk: (i) => `${i.ingestedAt}#${i.id}` },
    byCluster: {
      index: 'gsi2', pk: (a: { orgId: string; cluster: string }) => clusterIssuesPartition(a.orgId, a.cluster),
      from: (i) => ({ orgId: i.orgId, cluster: i.cluster! }), sk: (i) => `${i.ingestedAt}#${i.id}`, when: (i) => Boolean(i.cluster),
    },
  },
});

export const clusterStatuses = ['active', 'archived'] as const;
export type ClusterStatus = (typeof clusterStatuses)[number];

export interface ConversationsClusterItem {
  id: string;
  orgId: string;
  label: string;
  icon: string;
  summary: string;
  /** Every cluster is `active`: nothing archives a cluster yet. */
  status: ClusterStatus;
  createdAt: string;
  updatedAt: string;
  issues: number;
  conversations: number;
  /** `source:<name>` and `week:<n>` counters. */
  [counter: `source:${string}` | `week:${string}`]: number;
}

export const conversationsClusterEntity = defineEntity<ConversationsClusterItem>()({
  type: 'conversations-cluster',
  key: ({ orgId, clusterId }: { orgId: string; clusterId: string }) => ({ pk: `ORG#${orgId}`, sk: `${CLUSTER_PREFIX}${clusterId}` }),
  partitions: {
    inOrg: (a: { orgId: string }) => ({ pk: `ORG#${a.orgId}`, prefix: CLUSTER_PREFIX }),
  },
  indexes: {
    byOrg: { index: 'gsi1', pk: (a: { orgId: string }) => clustersPartition(a.orgId), sk: (c) => `${c.updatedAt}#${c.id}` },
  },
});

const CLUSTER_PREFIX = 'CONVCLUSTER#';
const clustersPartition = (orgId: string) => `ORG#${orgId}#CONVCLUSTERS`;
const conversationsPartition = (orgId: string) => `ORG#${orgId}#CONVERSATIONS`;
const issuesPartition = (orgId: string) => `ORG#${orgId}#CONVISSUES`;
function clusterIssuesPartition(orgId: string, clusterId: string): string {
  return `ORG#${orgId}#CONVCLUSTER#${clusterId}#ISSUES`;
}

export const WEEK_MS = 7 * 24 * 60 * 60 * 1000;
export const weekNumber = (ms: number) => Math.floor(ms / WEEK_MS);

/** The clustering watermark of an organization: issues ingested up to `clusteredUpTo` are clustered. */
export interface ConversationsClusteringItem {
  orgId: string;
  clusteredUpTo: string;
}

export const conversationsClusteringEntity = defineEntity<ConversationsClusteringItem>()({
  type: 'conversations-clustering',
  key: ({ orgId }: { orgId: string }) => ({ pk: `ORG#${orgId}`, sk: 'CONVCLUSTERING' }),
});
