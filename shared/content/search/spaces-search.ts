import type { SpaceItem } from '../../db/entities/space.ts';
import { revisionEntity } from '../../db/entities/revision.ts';
import { getJsonBlob } from '../blobs.ts';
import type { LocatedPage } from '../tree.ts';
import type { Manifest } from '../types.ts';
import { mapLimit } from '../../map-limit.ts';
import { presentRankedPages, rankRevision, type SearchPageResult } from './space-search.ts';
import type { RequestScope } from '../../http/scope.ts';

/** Page results kept per space in a search over several spaces. */
export const MAX_PAGES_PER_SPACE = 20;
/** Spaces searched at the same time. */
const CONCURRENCY = 8;

/** The public interface's SearchSpaceResult: a space and its matching pages. */
export interface SearchSpaceResult {
  type: 'space';
  id: string;
  title: string;
  score: number;
  pages: SearchPageResult[];
}

export interface SearchSpacesOptions {
  /** Pages that may appear in the results (default: every page). */
  searchable?: (located: LocatedPage) => boolean;
}

/**
 * Searches the primary content of several spaces (already checked readable by the caller)
 * for the organization search and the site search alike: revision records come in one
 * batch, each space is searched through its revision's stored index (shared/content/search),
 * spaces without hits are left out, spaces are ranked by their best page, and each page's
 * `rank` is its position among the kept pages of every space.
 */
export async function searchSpaces(request: RequestScope, spaces: SpaceItem[], query: string, options: SearchSpacesOptions = {}): Promise<SearchSpaceResult[]> {
  const withContent = spaces.filter((s) => s.revision);
  const loader = request.loader;
  const revisionKey = (space: SpaceItem) => revisionEntity.key({ spaceId: space.id, revisionId: space.revision! });
  await loader.load(withContent.map(revisionKey));

  const perSpace = await mapLimit(withContent, CONCURRENCY, async (space) => {
    const record = loader.peek(revisionKey(space));
    if (!record) return undefined;
    const manifestHash = revisionEntity.fromRecord(record).manifest;
    const manifest = await getJsonBlob<Manifest>(manifestHash);
    const ranked = await rankRevision({ manifestHash, manifest }, query, { limit: MAX_PAGES_PER_SPACE, include: options.searchable });
    return ranked.length > 0 ? { space, pages: presentRankedPages(space.id, ranked) } : undefined;
  });

  const found = perSpace.filter((x): x is NonNullable<typeof x> => x !== undefined);
  // Global rank: every kept page, best score first.
  const all = found.flatMap((f) => f.pages).sort((a, b) => b.score - a.score);
  all.forEach((page, i) => { page.rank = i + 1; });
  return found
    .map(({ space, pages }) => ({ type: 'space' as const, id: space.id, title: space.title, score: pages[0]!.score, pages }))
    .sort((a, b) => b.score - a.score);
}
