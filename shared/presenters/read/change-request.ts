import { notFound } from '../../http/errors.ts';
import { loadSpaceAccess } from '../../policies/access.ts';
import {
  changeRequestEntity, changeRequestNumberEntity, MAX_CHANGE_REQUEST_NUMBER, type ChangeRequestItem,
} from '../../db/entities/change-request.ts';
import { userEntity } from '../../db/entities/user.ts';
import { spaceEntity } from '../../db/entities/space.ts';
import { organizationEntity } from '../../db/entities/organization.ts';
import { memberEntity } from '../../db/entities/member.ts';
import { collectionEntity } from '../../db/entities/collection.ts';
import type { Key } from '../../db/table.ts';
import { presentChangeRequest, type PresentedChangeRequest } from '../change-request.ts';
import type { RequestScope } from '../../http/scope.ts';

/** The number a `{changeRequestId}` path parameter names, when it is all digits (spec 4 note b). */
export function parseChangeRequestNumber(idOrNumber: string): number | undefined {
  if (!/^\d{1,10}$/.test(idOrNumber)) return undefined;
  const n = Number(idOrNumber);
  return n >= 1 && n <= MAX_CHANGE_REQUEST_NUMBER ? n : undefined;
}

/**
 * A change request of a readable space by its id or its number, with the caller's access
 * to the space (loadSpaceAccess). The change request lookup (id and, for digits, the number
 * pointer) is read in the same batch as the organization, membership and ancestors the
 * access check needs; a number costs one more read (the change request it names). 404
 * when the space is not readable or no change request matches.
 */
export async function loadChangeRequest(request: RequestScope, spaceId: string, idOrNumber: string) {
  const loader = request.loader;
  const byId = changeRequestEntity.key({ spaceId, changeRequestId: idOrNumber });
  const number = parseChangeRequestNumber(idOrNumber);
  const pointer = number !== undefined ? changeRequestNumberEntity.key({ spaceId, number }) : undefined;
  // One batch for the change request and what the access check needs (the space record
  // itself came with the token), then the check reads from the cache.
  const keys: Key[] = pointer ? [byId, pointer] : [byId];
  const spaceRecord = await loader.get(spaceEntity.key({ spaceId }));
  if (spaceRecord) {
    const orgId = spaceRecord.orgId as string;
    keys.push(
      organizationEntity.key({ orgId }),
      memberEntity.key({ orgId, userId: request.caller.userId }),
      ...((spaceRecord.ancestors as string[] | undefined) ?? []).map((collectionId) => collectionEntity.key({ collectionId })),
    );
  }
  await loader.load(keys);
  const access = await loadSpaceAccess(request, spaceId);
  let record = pointer ? undefined : loader.peek(byId);
  if (pointer) {
    const target = loader.peek(pointer);
    record = target
      ? await loader.get(changeRequestEntity.key({ spaceId, changeRequestId: target.changeRequestId as string }))
      : loader.peek(byId);
  }
  if (!record) throw notFound(`No change request found with id or number ${idOrNumber} in space ${spaceId}`);
  return { ...access, changeRequest: changeRequestEntity.fromRecord(record) };
}

/**
 * Presents change requests with their users (createdBy, mergedBy) fetched in one batch.
 * `spaceRevision` gives each change request's space's current revision (for `outdated`).
 */
export async function presentChangeRequests(
  request: RequestScope,
  items: ChangeRequestItem[],
  spaceRevision: (spaceId: string) => string | undefined,
): Promise<PresentedChangeRequest[]> {
  const loader = request.loader;
  const userIds = new Set<string>();
  for (const cr of items) {
    userIds.add(cr.createdBy);
    if (cr.mergedBy) userIds.add(cr.mergedBy);
  }
  const keys: Key[] = [...userIds].map((userId) => userEntity.key({ userId }));
  await loader.load(keys);
  const user = (userId: string) => {
    const r = loader.peek(userEntity.key({ userId }));
    return r ? userEntity.fromRecord(r) : undefined;
  };
  return items.map((cr) => presentChangeRequest(cr, { spaceRevision: spaceRevision(cr.spaceId), user }));
}
