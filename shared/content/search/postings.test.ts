import { describe, expect, it } from 'vitest';
import type { SearchResult } from 'minisearch';
import { indexOf, loadMiniSearch, loadPostings, searchIndex } from './revision-index.ts';
import type { ManifestPage } from '../types.ts';

/**
 * The top-k path (SearchPostings.top) against the exhaustive one it replaces: MiniSearch's own
 * search (every matching entry scored and sorted), grouped by page the way the service did
 * before: a page ranks by its best entry, ties by the sum of its entries' scores, then tree order.
 */
const vocabulary = [
  'deploy', 'deployment', 'deployments', 'deployed', 'token', 'tokens', 'webhook', 'cursor', 'quota', 'region',
  'bucket', 'queue', 'lambda', 'schema', 'migrate', 'migration', 'rollback', 'release', 'preview', 'publish',
  'space', 'spaces', 'site', 'section', 'reader', 'search', 'searching', 'markdown', 'revision', 'merge',
  'conflict', 'branch', 'install', 'installer', 'configure', 'configuration', 'café', 'naïve', 'index', 'indexes',
];

/** A deterministic pseudo-random corpus (mulberry32): 60 pages, 0-4 sections each. */
function corpus() {
  let seed = 42;
  const random = () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const words = (n: number) => Array.from({ length: n }, () => vocabulary[Math.floor(random() * vocabulary.length)]).join(' ');
  return Array.from({ length: 60 }, (_, i) => {
    const page = { id: `p${i}`, type: 'document', title: words(1 + Math.floor(random() * 3)), slug: `p${i}`, createdAt: '', updatedAt: '', pages: [] } as ManifestPage;
    if (random() < 0.3) page.description = words(4);
    const sections = Array.from({ length: Math.floor(random() * 5) }, (_, s) => {
      const headings = s === 0 && random() < 0.5 ? [] : [words(2)];
      return { id: `s${s}`, title: headings[0] ?? '', headings, body: words(5 + Math.floor(random() * 40)) };
    });
    return { page, sections };
  });
}

const pages = corpus();
const stored = JSON.parse(JSON.stringify(indexOf(pages))) as unknown;
const miniSearch = loadMiniSearch(stored);
const postings = loadPostings(stored);
const treeOrder = new Map(pages.map(({ page }, i) => [page.id, i]));

/** Pages of MiniSearch's exhaustive results, ranked as the service ranked them before top-k. */
function exhaustive(query: string, include: (pageId: string) => boolean = () => true) {
  const byPage = new Map<string, SearchResult[]>();
  for (const hit of searchIndex(miniSearch, query)) {
    if (!include(hit.page)) continue;
    byPage.set(hit.page, [...(byPage.get(hit.page) ?? []), hit]);
  }
  return [...byPage.entries()]
    .map(([key, hits]) => ({ key, hits, score: hits[0]!.score, total: hits.reduce((sum, h) => sum + h.score, 0) }))
    .sort((a, b) => b.score - a.score || b.total - a.total || treeOrder.get(a.key)! - treeOrder.get(b.key)!);
}

/** What a ranked page shows: its id, score and hits (entry, score, matched terms), hits best first then in entry order. */
const shape = (groups: { key: string; score: number; hits: { score: number; terms: string[]; anchor?: string }[] }[]) =>
  groups.map((g) => ({
    key: g.key,
    score: g.score,
    hits: g.hits
      .map((h) => ({ anchor: h.anchor ?? null, score: h.score, terms: [...h.terms].sort() }))
      .sort((a, b) => b.score - a.score || String(a.anchor).localeCompare(String(b.anchor))),
  }));
const exhaustiveShape = (query: string, limit: number, include?: (pageId: string) => boolean) =>
  shape(exhaustive(query, include).slice(0, limit).map((g) => ({ ...g, hits: g.hits.map((h) => ({ score: h.score, terms: h.terms, anchor: h.anchor as string | undefined })) })));
const topShape = (query: string, limit: number, include?: (pageId: string) => boolean) =>
  shape(postings.top(query, { limit, include }).map((g) => ({ ...g, hits: g.hits.map((h) => ({ score: h.score, terms: h.terms, anchor: h.stored.anchor })) })));

const queries = [
  'deploy', 'deploy token', 'token deploy', 'webhook queue lambda', 'depl', 'deploymnet', 'configuraton', 'cafe', 'naive',
  'searching index', 'spaces site', 'deploy deploy', 'merge conflict branch rollback', 'qu', 'zzyzx', 'zzyzx deploy',
  'Release, preview & publish!', 'index indexes',
];

describe('SearchPostings.top (top-k) against MiniSearch exhaustive search', () => {
  it('the corpus exercises it: AND results wider than the limit, and an OR fallback', () => {
    expect(exhaustive('deploy').length).toBeGreaterThan(10);
    expect(miniSearch.search('zzyzx deploy', { combineWith: 'AND' })).toHaveLength(0);
    expect(exhaustive('zzyzx deploy').length).toBeGreaterThan(0);
  });

  for (const query of queries) {
    it(`ranks "${query}" the same, for the first 1, 3, 10 and every page`, () => {
      for (const limit of [1, 3, 10, 1000]) {
        expect(topShape(query, limit), `limit ${limit}`).toEqual(exhaustiveShape(query, limit));
      }
    });
  }

  it('keeps the limit among the included pages only', () => {
    const even = (pageId: string) => Number(pageId.slice(1)) % 2 === 0;
    const none = () => false;
    expect(exhaustive('deploy', even).length).toBeGreaterThan(5);
    for (const query of ['deploy', 'token webhook', 'depl']) {
      for (const limit of [1, 5, 20]) {
        const top = topShape(query, limit, even);
        expect(top).toHaveLength(Math.min(limit, exhaustive(query, even).length));
        expect(top, `${query}, limit ${limit}`).toEqual(exhaustiveShape(query, limit, even));
      }
      expect(topShape(query, 5, none)).toEqual([]);
    }
  });
});
