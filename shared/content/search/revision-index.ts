import MiniSearch, { type Options, type SearchOptions, type SearchResult } from 'minisearch';
// The markdown modules are imported one by one: the parser (remark) stays out of the bundle.
import { documentSections } from '../markdown/sections.ts';
import type { JSONDocument } from '../markdown/types.ts';
import { getJsonBlob } from '../blobs.ts';
import { walkPages } from '../tree.ts';
import type { Manifest } from '../types.ts';
import { DerivedIndexStore } from './derived-index.ts';
import { mapLimit } from '../../map-limit.ts';
import { normalizeTerm } from './excerpt.ts';

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

const indexOptions: Options<IndexEntry> = {
  idField: 'id',
  fields: FIELDS,
  storeFields: ['page', 'anchor', 'headings', 'body'],
  processTerm: (term) => normalizeTerm(term) || null,
  searchOptions,
};

/** Page documents loaded at once while building. */
const BUILD_CONCURRENCY = 16;

async function buildIndex(manifest: Manifest): Promise<unknown> {
  const located = [...walkPages(manifest.pages)];
  const entries: IndexEntry[] = [];
  let next = 0;
  const perPage = await mapLimit(located, BUILD_CONCURRENCY, async ({ page }) => {
    if (!page.document) return [];
    return documentSections(await getJsonBlob<JSONDocument>(page.document!));
  });
  located.forEach(({ page }, i) => {
    entries.push({ id: next++, page: page.id, pageTitle: page.title, ...(page.description ? { description: page.description } : {}) });
    for (const section of perPage[i]!) {
      entries.push({
        id: next++,
        page: page.id,
        anchor: section.id,
        headings: section.headings,
        heading: section.headings.join(' '),
        body: section.body,
      });
    }
  });
  const index = new MiniSearch<IndexEntry>(indexOptions);
  index.addAll(entries);
  return index.toJSON();
}

/**
 * Search indexes by manifest hash: S3 `indexes/search/v1/<manifestHash>.json.gz`, built on the
 * first search of a revision; up to 32 MB of serialized indexes stay deserialized in memory.
 */
export const searchIndexes = new DerivedIndexStore<MiniSearch<IndexEntry>>({
  kind: 'search',
  version: 1,
  maxCachedBytes: 32 * 1024 * 1024,
  build: buildIndex,
  decode: (stored) => MiniSearch.loadJS(stored as Parameters<typeof MiniSearch.loadJS>[0], indexOptions),
});

export type IndexHit = SearchResult & { page: string; anchor?: string; headings?: string[]; body?: string };

/**
 * Entries matching `query`, best first. All terms must match (in any field of an entry);
 * when nothing matches every term, entries matching any of them are returned.
 */
export function searchIndex(index: MiniSearch<IndexEntry>, query: string): IndexHit[] {
  const all = index.search(query, { combineWith: 'AND' });
  return (all.length > 0 ? all : index.search(query, { combineWith: 'OR' })) as IndexHit[];
}
