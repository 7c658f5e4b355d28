import { conflict } from '../../http/errors.ts';
import type { Role } from '../../http/schemas.ts';
import type { Write } from '../../db/writes.ts';
import { spaceEntity } from '../../db/entities/space.ts';
import { changeRequestEntity } from '../../db/entities/change-request.ts';
import {
  commentEntity, commentReplyEntity, isInScope, type CommentItem, type CommentReplyItem, type CommentScope,
} from '../../db/entities/comment.ts';
import { Rejection } from '../retry.ts';

/**
 * Records of comments and replies, and the open-comment counter of their scope. Shared by
 * the comment writes (post.ts, update.ts, delete.ts) and the reply writes (../comment-replies/).
 */

export interface Caller {
  userId: string;
  /** The caller's effective role on the space. */
  role: Role | null;
}

export const changedConcurrently = () => conflict('The comment was changed by another request; retry');
export const missingComment = (commentId: string) => new Rejection(404, `No comment found with id ${commentId}`);

/** A comment of the scope, read consistently; undefined when absent or in another scope. */
export async function readComment(scope: CommentScope, commentId: string): Promise<CommentItem | undefined> {
  const comment = await commentEntity.get({ spaceId: scope.spaceId, commentId }, { consistent: true });
  return comment && isInScope(comment, scope) ? comment : undefined;
}

export async function readReply(spaceId: string, commentId: string, replyId: string): Promise<CommentReplyItem | undefined> {
  return commentReplyEntity.get({ spaceId, commentId, replyId }, { consistent: true });
}

/** Put of a comment: a create (no previous version) or a replace of the version that was read. */
export function putComment(comment: CommentItem, previousVersion?: number): Write<unknown> {
  const key = { spaceId: comment.spaceId, commentId: comment.id };
  return previousVersion === undefined
    ? commentEntity.create(key, comment)
    : commentEntity.replace(key, comment, (w) => w.eq('version', previousVersion));
}

export function putReply(reply: CommentReplyItem, previousVersion?: number): Write<unknown> {
  const key = { spaceId: reply.spaceId, commentId: reply.commentId, replyId: reply.id };
  return previousVersion === undefined
    ? commentReplyEntity.create(key, reply)
    : commentReplyEntity.replace(key, reply, (w) => w.eq('version', previousVersion));
}

/**
 * The open-comment counter of a scope moves by `delta`: the space's `comments` (spec 2.7)
 * for its own comments, the change request's `comments` (spec 2.9) for a change request's.
 * Fails (condition) when the space or change request record is gone.
 */
export function openCommentsCounter(scope: CommentScope, delta: number): Write<unknown> {
  return scope.changeRequestId === undefined
    ? spaceEntity.add({ spaceId: scope.spaceId }, { comments: delta })
    : changeRequestEntity.add({ spaceId: scope.spaceId, changeRequestId: scope.changeRequestId }, { comments: delta });
}
