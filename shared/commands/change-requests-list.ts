import { isExpired } from '../policies/access.ts';
import type { OrganizationItem } from '../db/entities/organization.ts';
import { spaceEntity, type SpaceItem } from '../db/entities/space.ts';
import { changeRequestEntity, type ChangeRequestItem, type ChangeRequestStatus } from '../db/entities/change-request.ts';
import { queryPage, type QueryOptions } from '../db/operations.ts';
import { presentReadable } from './readable.ts';
import { presentChangeRequests } from './change-requests-load.ts';
import type { PresentedChangeRequest } from '../presenters/change-request.ts';
import type { RequestScope } from '../http/scope.ts';

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
export function changeRequestFilter(filters: ChangeRequestFilters): NonNullable<QueryOptions['filter']> {
  const names: Record<string, string> = { '#status': 'status' };
  const values: Record<string, unknown> = {};
  const statuses = filters.status.map((s, i) => {
    values[`:status${i}`] = s;
    return `:status${i}`;
  });
  const parts = [`#status IN (${statuses.join(', ')})`];
  const equal = (attribute: string, value: string | undefined) => {
    if (value === undefined) return;
    names[`#${attribute}`] = attribute;
    values[`:${attribute}`] = value;
    parts.push(`#${attribute} = :${attribute}`);
  };
  const contains = (attribute: string, value: string | undefined) => {
    if (value === undefined) return;
    names[`#${attribute}`] = attribute;
    values[`:${attribute}`] = value;
    parts.push(`contains(#${attribute}, :${attribute})`);
  };
  equal('createdBy', filters.creator);
  contains('contributors', filters.contributor);
  contains('requestedReviewers', filters.requestedReviewer);
  equal('conversationsIssuesCluster', filters.conversationsIssuesCluster);
  equal('spaceId', filters.space);
  return { expression: parts.join(' AND '), names, values };
}

/** A space's change requests, newest (highest number) first: Query gsi2 of the space. */
export async function listSpaceChangeRequests(
  request: RequestScope,
  space: SpaceItem,
  filters: ChangeRequestFilters,
  page: { limit: number; cursor?: string },
): Promise<{ items: PresentedChangeRequest[]; next?: string }> {
  const result = await queryPage({
    index: 'gsi2', partition: `SPACE#${space.id}#CHANGE_REQUESTS`, forward: false,
    limit: page.limit, cursor: page.cursor, filter: changeRequestFilter(filters),
  });
  const crs = result.records.map((r) => changeRequestEntity.fromRecord(r));
  const items = await presentChangeRequests(request, crs, () => space.revision);
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
  const result = await queryPage({
    index: 'gsi1', partition: `ORG#${org.id}#CHANGE_REQUESTS`, forward: false,
    limit: page.limit, cursor: page.cursor, filter: changeRequestFilter(filters),
  });
  const crs = result.records.map((r) => changeRequestEntity.fromRecord(r));
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
