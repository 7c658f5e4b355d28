import { commentScopeOf, type CommentItem, type CommentReplyItem, type CommentScope, type StoredReaction } from '../db/entities/comment.ts';
import type { UserItem } from '../db/entities/user.ts';
import type { Role } from '../http/schemas.ts';
import { policies } from '../policies/index.ts';
import { absentUser, presentUser } from './user.ts';
import { apiLocation } from './urls.ts';
import type { CommentOutput, CommentReplyOutput } from './schemas/comment.ts';

export interface CommentPresentationContext {
  /** The caller's effective role on the space. */
  role: Role | null;
  callerId: string;
  /** Users loaded for the request (shared/presenters/read/comments.ts); a missing user presents with an empty profile. */
  users: ReadonlyMap<string, UserItem>;
}

/** Every user a comment or reply names (author, resolver, reactors, repliers), for one BatchGet. */
export function commentUserIds(item: CommentItem | CommentReplyItem): string[] {
  const ids = [item.postedBy, ...item.reactions.flatMap((r) => r.users.map((u) => u.userId))];
  if ('repliers' in item) ids.push(...item.repliers.map((r) => r.userId));
  if ('resolvedBy' in item && item.resolvedBy) ids.push(item.resolvedBy);
  return ids;
}

/** API path of a scope's comments: /spaces/<space>/comments or /spaces/<space>/change-requests/<id>/comments. */
export function commentsPath(scope: CommentScope): string {
  const changeRequest = scope.changeRequestId === undefined ? '' : `/change-requests/${scope.changeRequestId}`;
  return `/spaces/${scope.spaceId}${changeRequest}/comments`;
}

/**
 * Comment (spec 2.10), every field; `resolvedAt`/`resolvedBy` only while resolved;
 * `target.changeRequest` for a comment posted in a change request, `target.review` for one posted with a review.
 */
export function presentComment(comment: CommentItem, context: CommentPresentationContext): CommentOutput {
  const user = (id: string) => presentUser(context.users.get(id) ?? absentUser(id, comment.postedAt));
  const base = {
    object: 'comment' as const,
    id: comment.id,
    postedBy: user(comment.postedBy),
    postedAt: comment.postedAt,
    ...(comment.editedAt ? { editedAt: comment.editedAt } : {}),
    reactions: presentReactions(comment.reactions, user),
    replies: comment.replies,
    repliers: comment.repliers.map((r) => ({ user: user(r.userId), count: r.count, updatedAt: r.updatedAt })),
    body: { markdown: comment.markdown },
    target: {
      space: comment.spaceId,
      revision: comment.target.revision,
      ...(comment.target.changeRequest ? { changeRequest: comment.target.changeRequest } : {}),
      ...(comment.target.review ? { review: comment.target.review } : {}),
      ...(comment.target.page ? { page: { id: comment.target.page } } : {}),
      ...(comment.target.node ? { node: { id: comment.target.node } } : {}),
      ...(comment.target.tableCell ? { tableCell: { ...comment.target.tableCell } } : {}),
    },
    urls: { location: apiLocation(`${commentsPath(commentScopeOf(comment))}/${comment.id}`) },
    permissions: policies.comment.permissions({ role: context.role, userId: context.callerId }, comment),
  };
  return comment.status === 'resolved' && comment.resolvedAt && comment.resolvedBy
    ? { ...base, status: 'resolved', resolvedAt: comment.resolvedAt, resolvedBy: user(comment.resolvedBy) }
    : { ...base, status: 'open' };
}

/** CommentReply (spec 2.10), every field; `scope` is its comment's. */
export function presentCommentReply(reply: CommentReplyItem, context: CommentPresentationContext, scope: CommentScope): CommentReplyOutput {
  const user = (id: string) => presentUser(context.users.get(id) ?? absentUser(id, reply.postedAt));
  return {
    object: 'comment-reply' as const,
    id: reply.id,
    postedBy: user(reply.postedBy),
    postedAt: reply.postedAt,
    ...(reply.editedAt ? { editedAt: reply.editedAt } : {}),
    reactions: presentReactions(reply.reactions, user),
    body: { markdown: reply.markdown },
    urls: { location: apiLocation(`${commentsPath(scope)}/${reply.commentId}/replies/${reply.id}`) },
    permissions: policies.comment.permissions({ role: context.role, userId: context.callerId }, reply),
  };
}

/** Emoji in the order they were first used, users in the order they reacted. */
function presentReactions(reactions: StoredReaction[], user: (id: string) => ReturnType<typeof presentUser>) {
  return reactions.map((r) => ({
    emoji: r.emoji,
    count: r.users.length,
    users: r.users.map((u) => ({ user: user(u.userId), reactedAt: u.reactedAt })),
  }));
}
