import type { Context } from 'hono';
import type { AppEnv } from '../../http/env.ts';
import { MAX_PAGE_SIZE } from '../../http/schemas.ts';
import { queryPage } from '../../db/operations.ts';
import type { OrganizationItem } from '../../db/entities/organization.ts';
import { spaceEntity, type SpaceItem } from '../../db/entities/space.ts';
import { revisionEntity } from '../../db/entities/revision.ts';
import { presentReadable } from '../../commands/readable.ts';
import { isExpired } from '../../policies/access.ts';
import { getJsonBlob } from '../blobs.ts';
import type { Manifest } from '../types.ts';
import { mapWithLimit } from './derived-index.ts';
import { presentRankedPages, rankRevision, type SearchPageResult } from './space-search.ts';

/** Spaces searched per organization search: the first ones the caller can read, oldest first. */
export const MAX_SPACES_PER_ORG_SEARCH = 50;
/** Page results kept per space in an organization search. */
export const MAX_PAGES_PER_SPACE = 20;
/** Spaces searched at the same time. */
const CONCURRENCY = 8;

export interface SearchSpaceResult {
  type: 'space';
  id: string;
  title: string;
  score: number;
  pages: SearchPageResult[];
}

/**
 * Organization search: the primary content of the organization's spaces the caller can
 * read (Query gsi1 `ORG#<org>#SPACES`, at most one page of 1000 records, then the same
 * permission filter as the space list), bounded to MAX_SPACES_PER_ORG_SEARCH spaces.
 * Revision records come in one batch; each space is searched through its revision's
 * stored index. Spaces without hits are left out; spaces are ranked by their best page,
 * and each page's `rank` is its position among the pages of every space.
 */
export async function searchOrganization(c: Context<AppEnv>, org: OrganizationItem, query: string): Promise<SearchSpaceResult[]> {
  const listed = await queryPage({ index: 'gsi1', partition: `ORG#${org.id}#SPACES`, limit: MAX_PAGE_SIZE });
  const live = listed.records.map((r) => spaceEntity.fromRecord(r)).filter((s) => !s.deletedAt && !isExpired(s) && s.revision);
  const readable = (await presentReadable(c, org, live, (space) => space)).slice(0, MAX_SPACES_PER_ORG_SEARCH);

  const loader = c.get('loader');
  const revisionKey = (space: SpaceItem) => revisionEntity.key({ spaceId: space.id, revisionId: space.revision! });
  await loader.load(readable.map(revisionKey));

  const perSpace = await mapWithLimit(readable, CONCURRENCY, async (space) => {
    const record = loader.peek(revisionKey(space));
    if (!record) return undefined;
    const manifestHash = revisionEntity.fromRecord(record).manifest;
    const manifest = await getJsonBlob<Manifest>(manifestHash);
    const ranked = await rankRevision({ manifestHash, manifest }, query);
    return ranked.length > 0 ? { space, pages: presentRankedPages(space.id, ranked.slice(0, MAX_PAGES_PER_SPACE)) } : undefined;
  });

  const found = perSpace.filter((x): x is NonNullable<typeof x> => x !== undefined);
  // Global rank: every kept page, best score first.
  const all = found.flatMap((f) => f.pages).sort((a, b) => b.score - a.score);
  all.forEach((page, i) => { page.rank = i + 1; });
  return found
    .map(({ space, pages }) => ({ type: 'space' as const, id: space.id, title: space.title, score: pages[0]!.score, pages }))
    .sort((a, b) => b.score - a.score);
}
