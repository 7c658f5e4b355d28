import { MAX_PAGE_SIZE } from '../../http/schemas.ts';
import type { OrganizationItem } from '../../db/entities/organization.ts';
import { spaceEntity, type SpaceItem } from '../../db/entities/space.ts';
import { revisionEntity } from '../../db/entities/revision.ts';
import { translationEntity } from '../../db/entities/translation.ts';
import { presentReadable } from '../../presenters/read/readable.ts';
import { isExpired } from '../../policies/access.ts';
import { getJsonBlob } from '../blobs.ts';
import { findPage } from '../tree.ts';
import type { Manifest } from '../types.ts';
import type { RequestScope } from '../../http/scope.ts';

/** Language versions of a page listed at most (the translation family is rarely larger). */
export const MAX_ALTERNATES = 50;

/** A meta link target of the public interface (RevisionPageMetaLinkTarget), here always a page. */
export interface PageMetaLink {
  kind: 'page';
  page: string;
  space: string;
}

/** The public interface's RevisionPageMetaLinks. */
export interface PageMetaLinks {
  canonical?: PageMetaLink;
  alternates: PageMetaLink[];
}

/**
 * Meta links of a page: what a published page declares as `<link rel="canonical">` and
 * `<link rel="alternate" hreflang>`. Pages have no canonical override here, so `canonical`
 * is left out (the page is its own canonical). `alternates` are the same page in the other
 * language versions of its space: a translation (spec 4.16) makes a result space whose
 * pages keep the source's page ids, so the family of a space is its source and every
 * result of that source. A version is listed when the caller can read its space and its
 * primary content has the page; the source first, then the results by language.
 */
export async function pageMetaLinks(request: RequestScope, org: OrganizationItem, spaceId: string, pageId: string): Promise<PageMetaLinks> {
  const translations = (await translationEntity.query.inOrg({ orgId: org.id }).page({ limit: MAX_PAGE_SIZE })).items;
  const source = translations.find((t) => t.result?.space === spaceId)?.source.space ?? spaceId;
  const results = translations.filter((t) => t.source.space === source && t.result)
    .sort((a, b) => a.language.localeCompare(b.language) || a.id.localeCompare(b.id));
  const family = [source, ...results.map((t) => t.result!.space)];
  const others = [...new Set(family)].filter((id) => id !== spaceId).slice(0, MAX_ALTERNATES);
  if (others.length === 0) return { alternates: [] };

  const loader = request.loader;
  await loader.load(others.map((id) => spaceEntity.key({ spaceId: id })));
  const spaces = others
    .map((id) => loader.peek(spaceEntity.key({ spaceId: id })))
    .filter((r): r is Record<string, unknown> => r !== undefined)
    .map((r) => spaceEntity.fromRecord(r) as SpaceItem)
    .filter((s) => s.orgId === org.id && !s.deletedAt && !isExpired(s) && s.revision);
  const readable = await presentReadable(request, org, spaces, (space) => space);

  const revisionKey = (space: SpaceItem) => revisionEntity.key({ spaceId: space.id, revisionId: space.revision! });
  await loader.load(readable.map(revisionKey));
  const withPage = await Promise.all(readable.map(async (space) => {
    const record = loader.peek(revisionKey(space));
    if (!record) return false;
    const manifest = await getJsonBlob<Manifest>(revisionEntity.fromRecord(record).manifest);
    return findPage(manifest, pageId) !== undefined;
  }));
  return { alternates: readable.filter((_, i) => withPage[i]).map((space) => ({ kind: 'page' as const, page: pageId, space: space.id })) };
}
