import { appLocation } from '../../presenters/urls.ts';
import { walkPages, type LocatedPage } from '../tree.ts';
import type { Manifest } from '../types.ts';
import { excerpt } from './excerpt.ts';
import type { SearchPostings } from './postings.ts';
import { readerSearchIndexes, searchIndexes, type StoredEntry } from './revision-index.ts';

/** Sections listed per page result (the best ones). */
export const MAX_SECTIONS_PER_PAGE = 5;

export interface SearchSectionResult {
  id: string;
  title: string;
  path: string;
  score: number;
  resultType: 'section';
  body: string;
  urls: { app: string };
}

/** A page result (spec 2.8 search result item, with the public interface's score and rank). */
export interface SearchPageResult {
  id: string;
  title: string;
  description: string;
  path: string;
  score: number;
  rank: number;
  resultType: 'page' | 'section';
  sections: SearchSectionResult[];
  ancestors: { title: string }[];
  urls: { app: string };
}

const round = (score: number) => Math.round(score * 1000) / 1000;

/**
 * Every page of a manifest by id, with its place in the tree and its tree order. Manifests
 * come from the blob cache, shared and read-only, so this is computed once per manifest.
 */
const pageTables = new WeakMap<Manifest, Map<string, LocatedPage & { order: number }>>();
function pagesOf(manifest: Manifest): Map<string, LocatedPage & { order: number }> {
  let table = pageTables.get(manifest);
  if (!table) {
    table = new Map();
    let order = 0;
    for (const l of walkPages(manifest.pages)) table.set(l.page.id, { ...l, order: order++ });
    pageTables.set(manifest, table);
  }
  return table;
}

/** One matching index entry of a page: the page's own entry, or one of its sections. */
export type IndexHit = StoredEntry & { score: number; terms: string[] };

/** A page with its matching index entries, ranked; presented only when it is on the page of results asked for. */
export interface RankedPage {
  where: LocatedPage & { order: number };
  hits: IndexHit[];
  score: number;
  rank: number;
}

export interface RankOptions {
  /** Pages wanted, best first: only these are sorted and given hits (top-k). */
  limit: number;
  /** Pages that may appear in the results (default: every page of the manifest). */
  include?: (located: LocatedPage) => boolean;
  /** Published sites search an index without adaptive content (readerSearchIndexes). */
  audience?: 'members' | 'readers';
}

/**
 * Searches one revision of a space: loads (or builds) the revision's index, then ranks the
 * pages of its matching entries. Pages are ranked by their best entry (ties: by the sum of
 * their entries' scores, then tree order); `rank` is the 1-based position in that order.
 * Only the first `limit` pages are returned.
 */
export async function rankRevision(revision: { manifestHash: string; manifest: Manifest }, query: string, options: RankOptions): Promise<RankedPage[]> {
  const store = options.audience === 'readers' ? readerSearchIndexes : searchIndexes;
  return rankIndex(await store.get(revision.manifestHash, revision.manifest), revision.manifest, query, options);
}

/** rankRevision over an index already in memory. */
export function rankIndex(index: SearchPostings<StoredEntry>, manifest: Manifest, query: string, { limit, include }: RankOptions): RankedPage[] {
  const located = pagesOf(manifest);
  const wanted = (pageId: string) => {
    const where = located.get(pageId);
    return where !== undefined && (!include || include(where));
  };
  return index.top(query, { limit, include: wanted }).map((group, i) => ({
    where: located.get(group.key)!,
    hits: group.hits.map((h) => ({ ...h.stored, score: h.score, terms: h.terms })),
    score: group.score,
    rank: i + 1,
  }));
}

/** Search result items (spec 2.8) of ranked pages: sections with excerpts, ancestors, urls. */
export function presentRankedPages(spaceId: string, ranked: RankedPage[]): SearchPageResult[] {
  return ranked.map(({ where, hits: pageHits, score, rank }) => {
    const { page, ancestors, path } = where;
    const pageUrl = appLocation(`/s/${spaceId}/${path}`);
    const sections = pageHits
      .filter((h) => h.anchor !== undefined)
      .slice(0, MAX_SECTIONS_PER_PAGE)
      .map((h): SearchSectionResult => ({
        id: h.anchor!,
        // The heading path ("Install > Linux"); text before the first heading is the page's own.
        title: h.headings && h.headings.length > 0 ? h.headings.join(' > ') : page.title,
        path: h.anchor ? `${path}#${h.anchor}` : path,
        score: round(h.score),
        resultType: 'section',
        body: excerpt(h.body ?? '', h.terms),
        urls: { app: h.anchor ? `${pageUrl}#${h.anchor}` : pageUrl },
      }));
    return {
      id: page.id,
      title: page.title,
      description: page.description ?? '',
      path,
      score: round(score),
      rank,
      resultType: pageHits[0]!.anchor === undefined ? 'page' : 'section',
      sections,
      ancestors: ancestors.map((a) => ({ title: a.title })),
      urls: { app: pageUrl },
    };
  });
}
