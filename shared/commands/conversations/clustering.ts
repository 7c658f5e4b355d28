/**
 * Clustering issues by meaning: TF-IDF vectors of their texts (vectors.ts),
 * cosine distances, and agglomerative clustering with average linkage (AGNES from the
 * `ml-hclust` package), cut where clusters are further apart than DISTANCE_THRESHOLD.
 * A cluster's label is made of its centroid's strongest terms, written as the words the
 * issues used; its summary names the issue closest to the centroid.
 * The threshold was chosen on the labelled corpus of bench/conversations (adjusted Rand index).
 */
import { agnes } from 'ml-hclust';
import { centroid, cosine, terms, tfidf, type Vector } from './vectors.ts';

export const DISTANCE_THRESHOLD = 0.9;

export interface IssueText {
  title: string;
  /** Everything the issue is about: its title and the user's messages. */
  text: string;
}

export interface FoundCluster {
  /** Indexes of the member issues, ascending. */
  members: number[];
  label: string;
  summary: string;
}

export function clusterIssues(issues: IssueText[], threshold = DISTANCE_THRESHOLD): FoundCluster[] {
  if (issues.length === 0) return [];
  const surface = new Map<string, Map<string, number>>();
  const vectors = tfidf(issues.map((issue) => terms(issue.text, surface)));
  const groups = issues.length === 1 ? [[0]] : agnes(distanceMatrix(vectors), { method: 'average', isDistanceMatrix: true })
    .cut(threshold).map((cluster) => cluster.indices().sort((a, b) => a - b));
  return groups
    .sort((a, b) => a[0]! - b[0]!)
    .map((members) => ({ members, ...describe(members.map((i) => vectors[i]!), members.map((i) => issues[i]!), surface) }));
}

function distanceMatrix(vectors: Vector[]): number[][] {
  const n = vectors.length;
  const matrix = Array.from({ length: n }, () => new Array<number>(n).fill(0));
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < i; j++) {
      const distance = Math.max(0, 1 - cosine(vectors[i]!, vectors[j]!));
      matrix[i]![j] = distance;
      matrix[j]![i] = distance;
    }
  }
  return matrix;
}

const LABEL_TERMS = 2;

function describe(vectors: Vector[], issues: IssueText[], surface: Map<string, Map<string, number>>) {
  const center = centroid(vectors);
  const top = [...center.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).slice(0, LABEL_TERMS).map(([stem]) => wordOf(stem, surface));
  const label = top.length > 0 ? capitalize(top.join(' ')) : 'Other';
  let closest = 0;
  vectors.forEach((v, i) => { if (cosine(v, center) > cosine(vectors[closest]!, center)) closest = i; });
  const example = issues[closest]!.title;
  const summary = issues.length === 1
    ? `One issue: "${example}"`
    : `${issues.length} issues about ${top.join(' and ') || 'various topics'}, such as "${example}"`;
  return { label: label.slice(0, 100), summary: summary.slice(0, 500) };
}

/** The written form most used for a stem. */
function wordOf(stem: string, surface: Map<string, Map<string, number>>): string {
  const forms = [...(surface.get(stem) ?? new Map([[stem, 1]])).entries()];
  return forms.sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))[0]![0];
}

const capitalize = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);
