import type { ConversationIssueItem, ConversationItem, ConversationsClusterItem } from '../db/entities/conversation.ts';
import { weekNumber } from '../db/entities/conversation.ts';
import { nowMs } from '../clock.ts';
import { apiLocation, appLocation } from './urls.ts';

/** Conversation (spec 2.14). */
export function presentConversation(c: ConversationItem) {
  return {
    object: 'conversation' as const,
    id: c.id,
    subject: c.subject,
    createdAt: c.createdAt,
    processedAt: c.processedAt,
    source: c.source,
    urls: { location: apiLocation(`/orgs/${c.orgId}/conversations/${encodeURIComponent(c.id)}`), ...(c.metadata.url ? { source: c.metadata.url } : {}) },
  };
}

/** GET conversation by id: `{conversation, parts, metadata}`. */
export function presentConversationDetails(c: ConversationItem) {
  return {
    conversation: presentConversation(c),
    parts: c.parts.map((p) => ({ type: p.type, role: p.role, body: p.body })),
    metadata: {
      ...(c.metadata.url ? { url: c.metadata.url } : {}),
      attributes: c.metadata.attributes,
      ...(c.metadata.createdAt ? { createdAt: c.metadata.createdAt } : {}),
    },
  };
}

/** ConversationIssue (spec 2.14). */
export function presentConversationIssue(i: ConversationIssueItem) {
  return {
    object: 'conversation-issue' as const,
    id: i.id,
    title: i.title,
    summary: i.summary,
    createdAt: i.createdAt,
    ingestedAt: i.ingestedAt,
    conversation: i.conversation,
    // null for the moment between ingestion and the clustering job (seconds).
    cluster: i.cluster ?? null,
    urls: { location: apiLocation(`/orgs/${i.orgId}/conversations-issues/${i.id}`) },
  };
}

export const PULSE_WEEKS = 12;

/**
 * ConversationsIssuesCluster (spec 2.14). `weeklyPulse`: issues per week for the past 3 months
 * (12 weeks by the issues' `createdAt`, oldest first, the current week last); `sources`: conversations per source. No
 * tasks are derived from issues, so the task counters are 0.
 */
export function presentConversationsCluster(cluster: ConversationsClusterItem) {
  const counters = cluster as unknown as Record<string, unknown>;
  const current = weekNumber(nowMs());
  const weeklyPulse = Array.from({ length: PULSE_WEEKS }, (_, i) => Number(counters[`week:${current - (PULSE_WEEKS - 1) + i}`] ?? 0));
  const sources: Record<string, number> = {};
  for (const [name, value] of Object.entries(counters)) {
    if (name.startsWith('source:')) sources[name.slice('source:'.length)] = Number(value);
  }
  return {
    object: 'issues-cluster' as const,
    id: cluster.id,
    label: cluster.label,
    createdAt: cluster.createdAt,
    updatedAt: cluster.updatedAt,
    icon: cluster.icon,
    summary: cluster.summary,
    weeklyPulse,
    sources,
    stats: {
      issues: Number(cluster.issues ?? 0),
      conversations: Number(cluster.conversations ?? 0),
      tasksTotal: 0, tasksBacklog: 0, tasksStarted: 0, tasksCompleted: 0, tasksCancelled: 0,
    },
    urls: {
      location: apiLocation(`/orgs/${cluster.orgId}/conversations-issues?cluster=${encodeURIComponent(cluster.id)}`),
      app: appLocation(`/o/${cluster.orgId}/insights/clusters/${encodeURIComponent(cluster.id)}`),
    },
  };
}
