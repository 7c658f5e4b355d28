import { isExpired } from '../../policies/access.ts';
import type { OrganizationItem } from '../../db/entities/organization.ts';
import { spaceEntity, type SpaceItem } from '../../db/entities/space.ts';
import { changeRequestEntity, type ChangeRequestItem, type ChangeRequestStatus } from '../../db/entities/change-request.ts';
import type { Where } from '../../db/conditions.ts';
import { presentReadable } from './readable.ts';
import { presentChangeRequests } from './change-request.ts';
import type { PresentedChangeRequest } from '../change-request.ts';
import type { RequestScope } from '../../http/scope.ts';

export interface ChangeRequestFilters {
  status: ChangeRequestStatus[];
  creator?: string;
  contributor?: string;
  requestedReviewer?: string;
  conversationsIssuesCluster?: string;
  /** Organization list only: one space. */
  space?: string;
}

/** The filters as one FilterExpression over the change request records. */
export function changeRequestFilter(filters: ChangeRequestFilters) {
  return (w: Where<ChangeRequestItem>) => w.and(
    w.in('status', filters.status),
    filters.creator !== undefined && w.eq('createdBy', filters.creator),
    filters.contributor !== undefined && w.contains('contributors', filters.contributor),
    filters.requestedReviewer !== undefined && w.contains('requestedReviewers', filters.requestedReviewer),
    filters.conversationsIssuesCluster !== undefined && w.eq('conversationsIssuesCluster', filters.conversationsIssuesCluster),
    filters.space !== undefined && w.eq('spaceId', filters.space),
  );
}

/** A space's change requests, newest (highest number) first: Query gsi2 of the space. */
export async function listSpaceChangeRequests(
  request: RequestScope,
  space: SpaceItem,
  filters: ChangeRequestFilters,
  page: { limit: number; cursor?: string },
): Promise<{ items: PresentedChangeRequest[]; next?: string }> {
  const result = await changeRequestEntity.query.bySpace({ spaceId: space.id }, { forward: false, where: changeRequestFilter(filters) })
    .page({ limit: page.limit, cursor: page.cursor });
  const items = await presentChangeRequests(request, result.items, () => space.revision);
  return { items, next: result.next };
}

/**
 * An organization's change requests, newest first: Query gsi1 of the organization, then
 * the page's spaces in one batch (and their ancestor collections in another, through
 * presentReadable) to drop change requests of spaces the caller cannot read, that are
 * deleted, or that have moved to another organization.
 */
export async function listOrganizationChangeRequests(
  request: RequestScope,
  org: OrganizationItem,
  filters: ChangeRequestFilters,
  page: { limit: number; cursor?: string },
): Promise<{ items: PresentedChangeRequest[]; next?: string }> {
  const result = await changeRequestEntity.query.byOrg({ orgId: org.id }, { forward: false, where: changeRequestFilter(filters) })
    .page({ limit: page.limit, cursor: page.cursor });
  const crs = result.items;
  const loader = request.loader;
  const spaceIds = [...new Set(crs.map((cr) => cr.spaceId))];
  await loader.load(spaceIds.map((spaceId) => spaceEntity.key({ spaceId })));
  const spaces = spaceIds
    .map((spaceId) => loader.peek(spaceEntity.key({ spaceId })))
    .filter((r): r is Record<string, unknown> => r !== undefined)
    .map((r) => spaceEntity.fromRecord(r))
    .filter((s) => s.orgId === org.id && !s.deletedAt && !isExpired(s));
  const readable = new Map((await presentReadable(request, org, spaces, (s) => s)).map((s) => [s.id, s]));
  const visible: ChangeRequestItem[] = crs.filter((cr) => readable.has(cr.spaceId));
  const items = await presentChangeRequests(request, visible, (spaceId) => readable.get(spaceId)?.revision);
  return { items, next: result.next };
}
