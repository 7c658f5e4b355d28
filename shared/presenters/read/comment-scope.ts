import type { Role } from '../../http/schemas.ts';
import { notFound } from '../../http/errors.ts';
import { loadSpaceAccess } from '../../policies/access.ts';
import {
  commentEntity, commentReplyEntity, isInScope, type CommentItem, type CommentReplyItem, type CommentScope,
} from '../../db/entities/comment.ts';
import { loadChangeRequest } from './change-request.ts';
import type { CommentContent } from '../../commands/comments/target.ts';
import type { RequestScope } from '../../http/scope.ts';

/** A comment scope a request names, with the caller's role on the space and the scope's current content. */
export interface LoadedCommentScope extends CommentContent {
  role: Role | null;
}

/**
 * The scope of /spaces/{spaceId}/comments (the space's own comments) or of
 * /spaces/{spaceId}/change-requests/{changeRequestId}/comments (that change request's, by id
 * or number). Both need the space to be readable (404 otherwise, also for an unknown change
 * request); permissions are the caller's role on the space either way.
 */
export async function loadCommentScope(request: RequestScope, spaceId: string, changeRequestId?: string): Promise<LoadedCommentScope> {
  if (changeRequestId === undefined) {
    const { space, role } = await loadSpaceAccess(request, spaceId);
    return { scope: { spaceId }, role, revision: space.revision, revisionName: "the space's current revision" };
  }
  const { role, changeRequest } = await loadChangeRequest(request, spaceId, changeRequestId);
  return {
    scope: { spaceId, changeRequestId: changeRequest.id },
    role,
    revision: changeRequest.revision,
    revisionName: "the change request's current revision",
  };
}

/**
 * A comment of the scope through the request loader (batched with the token, see
 * shared/http/prefetch.ts); undefined when absent or in another scope (a change request's
 * comment is not found under the space's comments, nor under another change request).
 */
export async function findComment(request: RequestScope, scope: CommentScope, commentId: string): Promise<CommentItem | undefined> {
  const record = await request.loader.get(commentEntity.key({ spaceId: scope.spaceId, commentId }));
  const comment = record ? commentEntity.fromRecord(record) : undefined;
  return comment && isInScope(comment, scope) ? comment : undefined;
}

/** A comment of the scope; 404 when absent. */
export async function loadComment(request: RequestScope, scope: CommentScope, commentId: string): Promise<CommentItem> {
  const comment = await findComment(request, scope, commentId);
  if (!comment) throw notFound(`No comment found with id ${commentId}`);
  return comment;
}

/** A reply and its comment (one batch), or undefined for either that is absent (the comment: in the scope). */
export async function findReply(request: RequestScope, scope: CommentScope, commentId: string, replyId: string) {
  const loader = request.loader;
  const replyKey = commentReplyEntity.key({ spaceId: scope.spaceId, commentId, replyId });
  await loader.load([commentEntity.key({ spaceId: scope.spaceId, commentId }), replyKey]);
  const comment = await findComment(request, scope, commentId);
  const record = comment ? loader.peek(replyKey) : undefined;
  return { comment, reply: record ? commentReplyEntity.fromRecord(record) : undefined };
}

/** A reply of a comment of the scope; 404 when the comment or the reply is absent. */
export async function loadReply(request: RequestScope, scope: CommentScope, commentId: string, replyId: string): Promise<{ comment: CommentItem; reply: CommentReplyItem }> {
  const { comment, reply } = await findReply(request, scope, commentId, replyId);
  if (!comment) throw notFound(`No comment found with id ${commentId}`);
  if (!reply) throw notFound(`No reply found with id ${replyId} on comment ${commentId}`);
  return { comment, reply };
}
