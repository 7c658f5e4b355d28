/**
 * Conversation clustering quality on the labelled corpus (test/fixtures/conversations/
 * corpus.json, 300 conversations over 12 topics): issues are derived by the service's
 * analyzer, clustered by the service's clustering, and compared with the topics by the
 * adjusted Rand index, for the threshold in use and its neighbours; the keyword rule the
 * clustering replaced is measured the same way as a baseline.
 *   npm run bench:conversations
 */
import { readFileSync } from 'node:fs';
import { conversationAnalyzer } from '../../shared/commands/conversations/analyzer.ts';
import { clusterIssues, DISTANCE_THRESHOLD } from '../../shared/commands/conversations/clustering.ts';
import type { ConversationPart } from '../../shared/db/entities/conversation.ts';
import { adjustedRandIndex } from './ari.ts';

interface Labelled { id: string; topic: string; subject: string; parts: ConversationPart[] }

const corpus = JSON.parse(readFileSync(new URL('../../test/fixtures/conversations/corpus.json', import.meta.url), 'utf8')) as Labelled[];
const issues = corpus.flatMap((c) => {
  const issue = conversationAnalyzer().analyze({ subject: c.subject, parts: c.parts });
  return issue ? [{ topic: c.topic, issue }] : [];
});
const labels = issues.map((i) => i.topic);
console.log(`corpus: ${corpus.length} conversations, ${new Set(corpus.map((c) => c.topic)).size} topics, ${issues.length} issues raised`);

/** First significant word of the subject, then of the messages: the keyword rule of the previous analyzer. */
const keyword = (text: string) => text.toLowerCase().split(/[^a-z]+/).find((w) => w.length >= 4 && !['that', 'with', 'from', 'have', 'does', 'cannot'].includes(w)) ?? 'general';
const keywordClusters = issues.map((i) => keyword(`${i.issue.title} ${i.issue.text}`));
const keywordIds = new Map<string, number>();
console.log(`keyword rule (baseline): ARI ${adjustedRandIndex(labels, keywordClusters.map((k) => keywordIds.get(k) ?? keywordIds.set(k, keywordIds.size).get(k)!)).toFixed(3)}, ${keywordIds.size} clusters`);

for (const threshold of [DISTANCE_THRESHOLD - 0.1, DISTANCE_THRESHOLD - 0.05, DISTANCE_THRESHOLD, DISTANCE_THRESHOLD + 0.03]) {
  const started = performance.now();
  const clusters = clusterIssues(issues.map((i) => i.issue), threshold);
  const ms = performance.now() - started;
  const assignment = new Array<number>(issues.length);
  clusters.forEach((c, index) => c.members.forEach((m) => { assignment[m] = index; }));
  const mark = threshold === DISTANCE_THRESHOLD ? '  <- in use' : '';
  console.log(`TF-IDF + average-linkage AGNES, cut at ${threshold.toFixed(2)}: ARI ${adjustedRandIndex(labels, assignment).toFixed(3)}, ${clusters.length} clusters, ${ms.toFixed(0)} ms${mark}`);
  if (threshold === DISTANCE_THRESHOLD) {
    for (const c of clusters.filter((x) => x.members.length > 1).slice(0, 14)) {
      const topics = new Map<string, number>();
      for (const m of c.members) topics.set(labels[m]!, (topics.get(labels[m]!) ?? 0) + 1);
      console.log(`  ${c.label.padEnd(28)} ${String(c.members.length).padStart(3)} issues  ${[...topics].map(([t, n]) => `${t}:${n}`).join(' ')}`);
    }
  }
}
