/**
 * The `conversations-cluster` job: clusters an organization's most recent issues across
 * conversations (clustering.ts) and stores the result.
 *   - Cluster ids are stable: a new cluster takes the id of the previous cluster it shares the
 *     most issues with; a cluster with no predecessor gets an id derived from its oldest issue.
 *   - A cluster's `label`, `summary` and `icon` come from its issues; its counters are recounted
 *     from them: issues, conversations, sources, and issues per week of their `createdAt`.
 *   - Only what changed is written: issues whose cluster changed, clusters whose issues
 *     changed (recounted, relabelled, their `updatedAt` moves), clusters left without issues
 *     (deleted). A cluster with the same issues keeps its label and summary.
 *   - A watermark (`CONVCLUSTERING.clusteredUpTo`, the newest `ingestedAt` clustered) makes
 *     the jobs of a burst of ingestions cheap: a job whose issue was already clustered returns.
 * Clustering is quadratic in memory and cubic in time (AGNES), so it covers the
 * MAX_CLUSTERED_ISSUES most recently ingested issues; older issues keep their cluster.
 */
import { nowIso } from '../../clock.ts';
import { sha256Hex } from '../../ids.ts';
import { ConditionFailed } from '../../db/errors.ts';
import { mapLimit } from '../../map-limit.ts';
import {
  conversationIssueEntity, conversationsClusterEntity, conversationsClusteringEntity, weekNumber,
  type ConversationIssueItem, type ConversationsClusterItem,
} from '../../db/entities/conversation.ts';
import { clusterIssues, type FoundCluster } from './clustering.ts';
import { run } from '../../db/writes.ts';

export const MAX_CLUSTERED_ISSUES = 500;
const WRITES_IN_FLIGHT = 8;

export async function reclusterConversations(orgId: string, ingestedAt: string): Promise<void> {
  const state = await conversationsClusteringEntity.get({ orgId }, { consistent: true });
  // Strictly newer: issues ingested in the same millisecond may not all have been read.
  if (state && String(state.clusteredUpTo) > ingestedAt) return;

  const { items: read } = await conversationIssueEntity.query.byOrg({ orgId }, { forward: false }).page({ limit: MAX_CLUSTERED_ISSUES });
  // Oldest first, so the order (and with it the result) does not depend on the read.
  const issues = [...read].sort((a, b) => (a.ingestedAt + a.id < b.ingestedAt + b.id ? -1 : 1));
  if (issues.length === 0) return;
  const found = clusterIssues(issues.map((i) => ({ title: i.title, text: i.text ?? i.title })));
  const ids = clusterIds(orgId, issues, found);

  const previous = new Map((await conversationsClusterEntity.query.inOrg({ orgId }).all()).map((c) => [c.id, c]));
  const now = nowIso();
  const clusterWrites = found.map((cluster, index) => {
    const members = cluster.members.map((m) => issues[m]!);
    const id = ids[index]!;
    // Same issues as before: the stored cluster stands (its label and summary do not drift as other topics grow).
    if (previous.has(id) && members.every((m) => m.cluster === id) && issues.filter((i) => i.cluster === id).length === members.length) return undefined;
    return clusterItem(orgId, id, cluster, members, previous.get(id), now);
  });
  const issueWrites = found.flatMap((cluster, index) => cluster.members
    .map((m) => issues[m]!).filter((issue) => issue.cluster !== ids[index]).map((issue) => ({ ...issue, cluster: ids[index]! })));
  const kept = new Set(ids);
  const gone = [...previous.keys()].filter((id) => !kept.has(id));

  await mapLimit(issueWrites, WRITES_IN_FLIGHT, (issue) => run(conversationIssueEntity.put({ orgId, issueId: issue.id }, issue)));
  await mapLimit(clusterWrites.filter((c): c is ConversationsClusterItem => c !== undefined), WRITES_IN_FLIGHT,
    (cluster) => run(conversationsClusterEntity.put({ orgId, clusterId: cluster.id }, cluster)));
  if (read.length < MAX_CLUSTERED_ISSUES) {
    // Every issue of the organization was clustered: clusters left empty are removed.
    await mapLimit(gone, WRITES_IN_FLIGHT, (clusterId) => run(conversationsClusterEntity.delete({ orgId, clusterId })));
  }
  const clusteredUpTo = issues.reduce((max, i) => (i.ingestedAt > max ? i.ingestedAt : max), '');
  try {
    await run(conversationsClusteringEntity.put({ orgId }, { orgId, clusteredUpTo }, (w) => w.or(w.absent(), w.lt('clusteredUpTo', clusteredUpTo))));
  } catch (error) {
    if (!(error instanceof ConditionFailed)) throw error; // a newer job got further: fine
  }
}

/** Each found cluster's id: the previous cluster it overlaps most (each used once), else a new one. */
function clusterIds(orgId: string, issues: ConversationIssueItem[], found: FoundCluster[]): string[] {
  const overlaps: { index: number; id: string; count: number }[] = [];
  found.forEach((cluster, index) => {
    const counts = new Map<string, number>();
    for (const m of cluster.members) {
      const id = issues[m]!.cluster;
      if (id) counts.set(id, (counts.get(id) ?? 0) + 1);
    }
    for (const [id, count] of counts) overlaps.push({ index, id, count });
  });
  overlaps.sort((a, b) => b.count - a.count || a.index - b.index || a.id.localeCompare(b.id));
  const ids = new Array<string | undefined>(found.length);
  const taken = new Set<string>();
  for (const { index, id } of overlaps) {
    if (ids[index] || taken.has(id)) continue;
    ids[index] = id;
    taken.add(id);
  }
  return found.map((cluster, index) => ids[index] ?? sha256Hex(`${orgId}\u0000${issues[cluster.members[0]!]!.id}`).slice(0, 16));
}

function clusterItem(
  orgId: string, id: string, cluster: FoundCluster, members: ConversationIssueItem[], before: ConversationsClusterItem | undefined, now: string,
): ConversationsClusterItem {
  const errors = members.filter((m) => m.kind === 'error').length;
  const item: ConversationsClusterItem = {
    id, orgId, label: cluster.label, summary: cluster.summary, icon: errors * 2 >= members.length ? 'bug' : 'circle-question',
    status: before?.status ?? 'active', createdAt: before?.createdAt ?? now, updatedAt: now,
    issues: members.length, conversations: new Set(members.map((m) => m.conversation)).size,
  };
  const counters = item as unknown as Record<string, number>;
  for (const member of members) {
    const source = `source:${member.source ?? 'api'}`;
    counters[source] = (counters[source] ?? 0) + 1;
    const week = `week:${weekNumber(Date.parse(member.createdAt))}`;
    counters[week] = (counters[week] ?? 0) + 1;
  }
  return item;
}
