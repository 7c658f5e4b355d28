import { config } from '../config.ts';
import { conflict } from '../http/errors.ts';
import type { Role } from '../http/schemas.ts';
import { addToCounter, getRecord, type TransactItem } from '../db/operations.ts';
import { spaceEntity } from '../db/entities/space.ts';
import { changeRequestEntity } from '../db/entities/change-request.ts';
import {
  commentEntity, commentReplyEntity, isInScope, type CommentItem, type CommentReplyItem, type CommentScope,
} from '../db/entities/comment.ts';
import { Rejection } from './retry.ts';

/**
 * Records of comments and replies, and the open-comment counter of their scope. Shared by
 * the comment writes (comments-write.ts) and the reply writes (comments-replies.ts).
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
  const record = await getRecord(commentEntity.key({ spaceId: scope.spaceId, commentId }), true);
  const comment = record ? commentEntity.fromRecord(record) : undefined;
  return comment && isInScope(comment, scope) ? comment : undefined;
}

export async function readReply(spaceId: string, commentId: string, replyId: string): Promise<CommentReplyItem | undefined> {
  const record = await getRecord(commentReplyEntity.key({ spaceId, commentId, replyId }), true);
  return record ? commentReplyEntity.fromRecord(record) : undefined;
}

/** The previous-version condition of a replace; a create (no previous version) needs the key to be free. */
function versionCondition(previousVersion?: number) {
  return previousVersion === undefined
    ? { ConditionExpression: 'attribute_not_exists(pk)' }
    : { ConditionExpression: 'version = :previous', ExpressionAttributeValues: { ':previous': previousVersion } };
}

/** Put of a comment: a create (no previous version) or a replace of the version that was read. */
export function putComment(comment: CommentItem, previousVersion?: number): TransactItem {
  return {
    Put: {
      TableName: config.tableName,
      Item: commentEntity.toRecord({ spaceId: comment.spaceId, commentId: comment.id }, comment),
      ...versionCondition(previousVersion),
    },
  };
}

export function putReply(reply: CommentReplyItem, previousVersion?: number): TransactItem {
  return {
    Put: {
      TableName: config.tableName,
      Item: commentReplyEntity.toRecord({ spaceId: reply.spaceId, commentId: reply.commentId, replyId: reply.id }, reply),
      ...versionCondition(previousVersion),
    },
  };
}

/**
 * The open-comment counter of a scope moves by `delta`: the space's `comments` (spec 2.7)
 * for its own comments, the change request's `comments` (spec 2.9) for a change request's.
 * Fails (condition) when the space or change request record is gone.
 */
export function openCommentsCounter(scope: CommentScope, delta: number): TransactItem {
  const key = scope.changeRequestId === undefined
    ? spaceEntity.key({ spaceId: scope.spaceId })
    : changeRequestEntity.key({ spaceId: scope.spaceId, changeRequestId: scope.changeRequestId });
  return addToCounter(key, 'comments', delta);
}
