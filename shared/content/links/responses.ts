import * as v from 'valibot';
import { revisionEntity } from '../../db/entities/revision.ts';
import { changeRequestEntity } from '../../db/entities/change-request.ts';
import { changeRequestFilter } from '../../presenters/read/change-requests.ts';
import { pageOfArray } from '../../http/array-page.ts';
import { listQueryEntries } from '../../http/schemas.ts';
import { presentList } from '../../presenters/list.ts';
import { getJsonBlob } from '../blobs.ts';
import type { Manifest } from '../types.ts';
import type { LoadedRevision } from '../revisions.ts';
import { mapLimit } from '../../map-limit.ts';
import { checkLinks, linkStatuses, type CheckedLink, type LinkStatus, type LinkLocation, type LinkTarget } from './check.ts';
import { linkIndexes } from './link-index.ts';
import type { RequestScope } from '../../http/scope.ts';

/** A revision of a space, as the links operations see it. */
export interface RevisionInSpace {
  orgId: string;
  spaceId: string;
  revisionId: string;
  manifestHash: string;
  manifest: Manifest;
}

/** Query of the links operations: `status` (ok, broken or in-app), `page`, `limit`. */
export const linksQuery = v.object({
  ...listQueryEntries,
  status: v.optional(v.picklist(linkStatuses as LinkStatus[], 'must be ok, broken or in-app')),
});

/** The revision of loaded content (primary, change request or by id), as the links operations name it. */
export function revisionInSpace(content: LoadedRevision & { space: { id: string; orgId: string } }): RevisionInSpace {
  return {
    orgId: content.space.orgId,
    spaceId: content.space.id,
    revisionId: content.revision.id,
    manifestHash: content.revision.manifest,
    manifest: content.manifest,
  };
}

/** Active (draft or open) change requests compared with primary content for `broken.changeRequest`. */
export const MAX_CHANGE_REQUESTS_CHECKED = 20;

/** The checked links of a revision (or of one of its pages). */
export async function revisionLinks(revision: RevisionInSpace, pageId?: string): Promise<CheckedLink[]> {
  const index = await linkIndexes.get(revision.manifestHash, revision.manifest);
  return checkLinks(revision.manifest, index, pageId !== undefined ? { pageId } : {});
}

/**
 * A content location (the public interface's ContentLocation), naming entities by id:
 * the organization, the space, the revision (`versionContext`) and the page or file.
 */
function contentReference(revision: RevisionInSpace, target: LinkTarget | { kind: 'page'; page: string; node: string }) {
  if (target.kind === 'url') return { kind: 'url' as const, url: target.url };
  const base = {
    organization: revision.orgId,
    space: revision.spaceId,
    versionContext: { type: 'revision' as const, revision: revision.revisionId },
  };
  if (target.kind === 'file') return { kind: 'file' as const, ...base, file: target.file };
  const internalLocation = 'node' in target
    ? { internalLocation: { type: 'node' as const, node: target.node } }
    : target.anchor ? { internalLocation: { type: 'anchor' as const, anchor: target.anchor } } : {};
  return { kind: 'page' as const, ...base, page: target.page, ...internalLocation };
}

export function presentLink(link: CheckedLink, revision: RevisionInSpace) {
  return {
    status: link.status,
    relation: 'reference' as const,
    targetReference: contentReference(revision, link.target),
    locationReferences: link.locations.map((l) => contentReference(revision, { kind: 'page', page: l.page, node: l.node })),
  };
}

const brokenKeys = (links: CheckedLink[]) => new Set(links.filter((l) => l.status === 'broken').map((l) => l.key));

/** Broken links of `other` that `base` does not have (those a merge of `other` would bring in). */
export function brokenIntroduced(base: CheckedLink[], other: CheckedLink[]): Set<string> {
  const known = brokenKeys(base);
  return new Set([...brokenKeys(other)].filter((key) => !known.has(key)));
}

/**
 * Broken links that the space's active change requests (draft or open, the 20 most recent)
 * would bring into primary content: broken there and not broken in `primary`.
 */
export async function brokenInChangeRequests(request: RequestScope, primary: RevisionInSpace, primaryLinks: CheckedLink[], pageId?: string): Promise<number> {
  const listed = await changeRequestEntity.query.bySpace({ spaceId: primary.spaceId }, {
    forward: false, where: changeRequestFilter({ status: ['open', 'draft'] }),
  }).page({ limit: MAX_CHANGE_REQUESTS_CHECKED });
  const revisionIds = [...new Set(listed.items.map((cr) => cr.revision))]
    .filter((id) => id !== primary.revisionId);
  if (revisionIds.length === 0) return 0;
  const loader = request.loader;
  const keys = revisionIds.map((revisionId) => revisionEntity.key({ spaceId: primary.spaceId, revisionId }));
  await loader.load(keys);
  const introduced = new Set<string>();
  await mapLimit(keys, 4, async (key) => {
    const record = loader.peek(key);
    if (!record) return;
    const revision = revisionEntity.fromRecord(record);
    if (revision.manifest === primary.manifestHash) return;
    const manifest = await getJsonBlob<Manifest>(revision.manifest);
    const links = await revisionLinks({ ...primary, revisionId: revision.id, manifestHash: revision.manifest, manifest }, pageId);
    for (const key of brokenIntroduced(primaryLinks, links)) introduced.add(key);
  });
  return introduced.size;
}

/**
 * The links response (spec 2.8): the list envelope of link items, filtered by `status`
 * and paginated, with `stats` over every link of the content checked (any status).
 */
export function linksResponse(
  revision: RevisionInSpace,
  links: CheckedLink[],
  query: { status?: LinkStatus; page?: string; limit: number },
  brokenInChangeRequest: number,
  scope: string,
) {
  const filtered = query.status ? links.filter((l) => l.status === query.status) : links;
  const one = pageOfArray(filtered, { limit: query.limit, cursor: query.page, scope: `${scope}:${query.status ?? 'all'}` });
  return {
    ...presentList(one.items.map((l) => presentLink(l, revision)), one.next),
    stats: {
      total: links.length,
      broken: { total: links.filter((l) => l.status === 'broken').length, changeRequest: brokenInChangeRequest },
    },
  };
}

/**
 * Backlinks of a file: every place (page and block) of the revision that links to it, as
 * content locations of kind `page` with the block as `internalLocation`.
 */
export function fileBacklinks(revision: RevisionInSpace, links: CheckedLink[], fileId: string) {
  return backlinks(revision, links, (target) => target.kind === 'file' && target.file === fileId, () => true);
}

/**
 * Backlinks of a page: every place of another page of the revision that links to it (to
 * the page or to one of its anchors, even one it lacks), in the same shape as file
 * backlinks, each place once. A page's links to its own headings are not backlinks.
 */
export function pageBacklinks(revision: RevisionInSpace, links: CheckedLink[], pageId: string) {
  return backlinks(revision, links, (target) => target.kind === 'page' && target.page === pageId, (l) => l.page !== pageId);
}

function backlinks(revision: RevisionInSpace, links: CheckedLink[], targets: (target: LinkTarget) => boolean, from: (l: LinkLocation) => boolean) {
  const seen = new Set<string>();
  return links
    .filter((l) => targets(l.target))
    .flatMap((l) => l.locations)
    .filter((l) => from(l) && !seen.has(`${l.page}\n${l.node}`) && seen.add(`${l.page}\n${l.node}`))
    .map((l) => contentReference(revision, { kind: 'page', page: l.page, node: l.node }));
}
