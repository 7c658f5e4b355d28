import MiniSearch, { type AsPlainObject, type Options, type SearchOptions, type SearchResult } from 'minisearch';
// The markdown modules are imported one by one: the parser (remark) stays out of the bundle.
import { documentSections, type Section } from '../markdown/sections.ts';
import type { JSONDocument } from '../markdown/types.ts';
import { getJsonBlob } from '../blobs.ts';
import { walkPages } from '../tree.ts';
import type { Manifest, ManifestPage, StoredDocument } from '../types.ts';
import { inlineIncludes } from '../../reader/inline-includes.ts';
import { withoutAdaptiveBlocks } from '../../reader/adaptive.ts';
import { DerivedIndexStore } from './derived-index.ts';
import { mapLimit } from '../../map-limit.ts';
import { normalizeTerm } from './excerpt.ts';
import { SearchPostings } from './postings.ts';

/**
 * The full-text index of one revision (MiniSearch). Each page gives one "page" entry (its
 * title and description) and one entry per section of its document (documentSections:
 * the heading path and the text up to the next heading). Entries name their page by id;
 * titles, paths and ancestors come from the manifest at query time, so the index holds
 * only what the manifest does not.
 */
export interface IndexEntry {
  id: number;
  page: string;
  /** Present on section entries: the heading's anchor ('' for text before the first heading). */
  anchor?: string;
  /** Section entries: the heading path, root first (empty for the leading section). */
  headings?: string[];
  pageTitle?: string;
  description?: string;
  heading?: string;
  body?: string;
}

const FIELDS = ['pageTitle', 'description', 'heading', 'body'];

/** Field weights: a title match beats a heading match, which beats body text. */
export const BOOST = { pageTitle: 6, heading: 3, description: 2, body: 1 };

const searchOptions: SearchOptions = {
  boost: BOOST,
  // Prefix matches for every term (search as you type); typo tolerance for longer ones.
  prefix: true,
  fuzzy: (term) => (term.length >= 4 ? 0.2 : false),
};

const normalizedTerm = (term: string) => normalizeTerm(term) || null;

const indexOptions: Options<IndexEntry> = {
  idField: 'id',
  fields: FIELDS,
  storeFields: ['page', 'anchor', 'headings', 'body'],
  processTerm: (term) => normalizedTerm(term),
  searchOptions,
};

/** Page documents loaded at once while building. */
const BUILD_CONCURRENCY = 16;

async function buildIndex(manifest: Manifest, shown: (document: StoredDocument) => StoredDocument = (d) => d): Promise<unknown> {
  const located = [...walkPages(manifest.pages)];
  const perPage = await mapLimit(located, BUILD_CONCURRENCY, async ({ page }) => {
    if (!page.document) return [];
    // What the page shows, reusable contents included where the page includes them.
    return documentSections(shown(await inlineIncludes(await getJsonBlob<StoredDocument>(page.document!), manifest)) as unknown as JSONDocument);
  });
  return indexOf(located.map(({ page }, i) => ({ page, sections: perPage[i]! }))).toJSON();
}

/** The index of pages in tree order, each with its document's sections (pure: no storage). */
export function indexOf(pages: { page: ManifestPage; sections: Section[] }[]): MiniSearch<IndexEntry> {
  const entries: IndexEntry[] = [];
  let next = 0;
  for (const { page, sections } of pages) {
    entries.push({ id: next++, page: page.id, pageTitle: page.title, ...(page.description ? { description: page.description } : {}) });
    for (const section of sections) {
      entries.push({
        id: next++,
        page: page.id,
        anchor: section.id,
        headings: section.headings,
        heading: section.headings.join(' '),
        body: section.body,
      });
    }
  }
  const index = new MiniSearch<IndexEntry>(indexOptions);
  index.addAll(entries);
  return index;
}

/** The stored fields of an entry: what a hit carries. */
export type StoredEntry = Pick<IndexEntry, 'page' | 'anchor' | 'headings' | 'body'>;

/** A stored (serialized) index, ready for top-k queries (postings.ts). */
export const loadPostings = (stored: unknown) => new SearchPostings<StoredEntry>(stored as AsPlainObject, {
  fields: FIELDS,
  processTerm: normalizedTerm,
  searchOptions,
  groupBy: 'page',
});

/** A stored index as MiniSearch itself (the exhaustive search the top-k path must agree with: tests). */
export const loadMiniSearch = (stored: unknown) => MiniSearch.loadJS(stored as AsPlainObject, indexOptions);

/**
 * Search indexes by manifest hash: S3 `indexes/search/v2/<manifestHash>.json.gz`, built on the
 * first search of a revision; up to 32 MB of serialized indexes stay deserialized in memory.
 * (v2: pages index the reusable contents they include; v1 indexes are left unread.)
 */
export const searchIndexes = new DerivedIndexStore<SearchPostings<StoredEntry>>({
  kind: 'search',
  version: 2,
  maxCachedBytes: 32 * 1024 * 1024,
  build: (manifest) => buildIndex(manifest),
  decode: loadPostings,
});

/**
 * The published sites' search indexes: the same, without adaptive content (`if` blocks). One
 * index serves every visitor, so what a condition hides from some of them is never searchable
 * there (its excerpts would show it); members' search (searchIndexes) keeps it.
 */
export const readerSearchIndexes = new DerivedIndexStore<SearchPostings<StoredEntry>>({
  kind: 'reader-search',
  version: 1,
  maxCachedBytes: 32 * 1024 * 1024,
  build: (manifest) => buildIndex(manifest, withoutAdaptiveBlocks),
  decode: loadPostings,
});

/**
 * MiniSearch's own search, exhaustive: every matching entry scored and sorted, best first.
 * All terms must match (in any field of an entry); when nothing matches every term, entries
 * matching any of them are returned. The service answers through SearchPostings.top, which
 * must rank the same (test/search-postings.test.ts).
 */
export function searchIndex(index: MiniSearch<IndexEntry>, query: string): SearchResult[] {
  const all = index.search(query, { combineWith: 'AND' });
  return all.length > 0 ? all : index.search(query, { combineWith: 'OR' });
}
