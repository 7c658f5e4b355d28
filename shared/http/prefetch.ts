import type { Key } from '../db/table.ts';
import { spaceEntity } from '../db/entities/space.ts';
import { collectionEntity } from '../db/entities/collection.ts';
import { organizationEntity } from '../db/entities/organization.ts';
import { commentEntity, commentReplyEntity } from '../db/entities/comment.ts';
import { changeRequestEntity } from '../db/entities/change-request.ts';

/**
 * Keys of the resource a path is about, read in the same BatchGetItem as the caller's
 * token so a single-resource GET costs at most two round trips.
 */
export function prefetchKeys(path: string): Key[] {
  const [, , kind, id, ...rest] = path.split('/'); // '', 'v1', kind, id, ...
  if (!id) return [];
  const decoded = safeDecode(id);
  if (decoded === undefined) return [];
  switch (kind) {
    case 'spaces': return [spaceEntity.key({ spaceId: decoded }), ...spaceChildKeys(decoded, rest)];
    case 'collections': return [collectionEntity.key({ collectionId: decoded })];
    case 'orgs': return [organizationEntity.key({ orgId: decoded })];
    default: return [];
  }
}

/**
 * A comment (and reply) named by /spaces/{spaceId}/comments/{commentId}[/replies/{commentReplyId}];
 * under /spaces/{spaceId}/change-requests/{changeRequestId}/comments, also the change request
 * (by id; a number costs loadChangeRequest one more read). Comments of both scopes are
 * stored in the space's partition (shared/db/entities/comment.ts).
 */
function spaceChildKeys(spaceId: string, rest: string[]): Key[] {
  const keys: Key[] = [];
  if (rest[0] === 'change-requests' && rest[2] === 'comments') {
    const changeRequestId = rest[1] ? safeDecode(rest[1]) : undefined;
    if (changeRequestId === undefined || changeRequestId.length > 100) return [];
    keys.push(changeRequestEntity.key({ spaceId, changeRequestId }));
    rest = rest.slice(2);
  }
  const [collection, childId, sub, subId] = rest;
  if (collection !== 'comments' || !childId) return keys;
  const commentId = safeDecode(childId);
  // Ids longer than any valid id (shared/http/schemas.ts) are left to validation.
  if (commentId === undefined || commentId.length > 100) return keys;
  keys.push(commentEntity.key({ spaceId, commentId }));
  const replyId = sub === 'replies' && subId ? safeDecode(subId) : undefined;
  if (replyId !== undefined && replyId.length <= 100) keys.push(commentReplyEntity.key({ spaceId, commentId, replyId }));
  return keys;
}

function safeDecode(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}
