import { defineEntity } from '../entity.ts';

/** Users who reacted with one emoji, in the order they reacted. */
export interface StoredReaction {
  emoji: string;
  users: { userId: string; reactedAt: string }[];
}

/** One user's replies to a comment: how many, and when the latest was posted. */
export interface StoredReplier {
  userId: string;
  count: number;
  updatedAt: string;
}

/**
 * Where a comment is anchored. A comment without `changeRequest` is one of the space's own
 * comments; with it, it was posted inside that change request (spec 2.10 `target.changeRequest`).
 * A comment without `page` is on the space (or the change request) as a whole.
 */
export interface CommentTargetItem {
  /** The revision current when the comment was posted: the space's, or the change request's. */
  revision: string;
  /** Id of the change request the comment was posted in. Never changes. */
  changeRequest?: string;
  /** Id of the review the comment was posted with (a review's comment). Never changes. */
  review?: string;
  page?: string;
  /** Key of a block of the page's document. */
  node?: string;
  tableCell?: { record: string; definition: string };
}

export type CommentStatus = 'open' | 'resolved';

export interface CommentItem {
  id: string;
  spaceId: string;
  postedBy: string;
  postedAt: string;
  editedAt?: string;
  /** The body (spec 2.10 `body.markdown`); '' for an empty body. */
  markdown: string;
  target: CommentTargetItem;
  status: CommentStatus;
  resolvedAt?: string;
  resolvedBy?: string;
  reactions: StoredReaction[];
  /** Number of replies, kept by the transaction that posts a reply. */
  replies: number;
  repliers: StoredReplier[];
  /** Optimistic concurrency: every write is conditional on the version it read, and bumps it. */
  version: number;
}

export interface CommentReplyItem {
  id: string;
  spaceId: string;
  commentId: string;
  postedBy: string;
  postedAt: string;
  editedAt?: string;
  markdown: string;
  reactions: StoredReaction[];
  version: number;
}

/**
 * Where a comment lives: the space's own discussion, or one change request of the space.
 * Lists, the open-comment counter and URLs depend on it; storage keys do not.
 */
export interface CommentScope {
  spaceId: string;
  /** The change request's id (never its number). */
  changeRequestId?: string;
}

export function commentScopeOf(comment: CommentItem): CommentScope {
  return { spaceId: comment.spaceId, ...(comment.target.changeRequest ? { changeRequestId: comment.target.changeRequest } : {}) };
}

/** Whether a comment belongs to `scope` (a change request's comment is not one of the space's own, and vice versa). */
export function isInScope(comment: CommentItem, scope: CommentScope): boolean {
  return comment.spaceId === scope.spaceId && comment.target.changeRequest === scope.changeRequestId;
}

const scopePrefix = (scope: CommentScope) =>
  scope.changeRequestId === undefined ? `SPACE#${scope.spaceId}` : `SPACE#${scope.spaceId}#CR#${scope.changeRequestId}`;

/** gsi2 partition of a scope's comments, sorted by `<postedAt>#<id>`. */
const scopeCommentsPartition = (scope: CommentScope) => `${scopePrefix(scope)}#COMMENTS`;

/** gsi3 partition of the comments of a scope anchored on one page (sparse), sorted by `<postedAt>#<id>`. */
const pageCommentsPartition = (scope: CommentScope, pageId: string) => `${scopePrefix(scope)}#PAGE#${pageId}#COMMENTS`;

/** gsi2 partition of a comment's replies, sorted by `<postedAt>#<id>`. */
const commentRepliesPartition = (spaceId: string, commentId: string) => `SPACE#${spaceId}#COMMENT#${commentId}#REPLIES`;

/**
 * SPACE#<space> / COMMENT#<id>: a comment lives in its space's partition (one Query or purge
 * reaches it with everything else the space owns), also when posted in a change request.
 * Lookup by id is one GetItem; the route then checks the comment's scope (isInScope).
 * gsi2: the scope's comments by postedAt (the space's own, or one change request's);
 * gsi3 (only page-anchored comments): a page's comments in that scope by postedAt.
 */
export const commentEntity = defineEntity<CommentItem>()({
  type: 'comment',
  key: ({ spaceId, commentId }: { spaceId: string; commentId: string }) => ({ pk: `SPACE#${spaceId}`, sk: `COMMENT#${commentId}` }),
  indexes: {
    byScope: {
      index: 'gsi2', pk: (a: { scope: CommentScope }) => scopeCommentsPartition(a.scope), from: (c) => ({ scope: commentScopeOf(c) }),
      sk: (c) => `${c.postedAt}#${c.id}`,
    },
    byPage: {
      index: 'gsi3', pk: (a: { scope: CommentScope; pageId: string }) => pageCommentsPartition(a.scope, a.pageId),
      from: (c) => ({ scope: commentScopeOf(c), pageId: c.target.page! }), sk: (c) => `${c.postedAt}#${c.id}`, when: (c) => Boolean(c.target.page),
    },
  },
});

/** Sort key prefix of every reply of a comment (Query begins_with, e.g. to delete them with it). */
export const replyPrefix = (commentId: string) => `COMMENT#${commentId}#REPLY#`;

/**
 * SPACE#<space> / COMMENT#<comment>#REPLY#<id>: replies sit right after their comment in the
 * partition. gsi2: the comment's replies by postedAt (the reply list).
 */
export const commentReplyEntity = defineEntity<CommentReplyItem>()({
  type: 'comment-reply',
  key: ({ spaceId, commentId, replyId }: { spaceId: string; commentId: string; replyId: string }) => ({ pk: `SPACE#${spaceId}`, sk: `${replyPrefix(commentId)}${replyId}` }),
  indexes: {
    byComment: {
      index: 'gsi2', pk: (a: { spaceId: string; commentId: string }) => commentRepliesPartition(a.spaceId, a.commentId), sk: (r) => `${r.postedAt}#${r.id}`,
    },
  },
  partitions: {
    /** Every reply of a comment, in its space's partition (to delete them with it). */
    ofComment: (a: { spaceId: string; commentId: string }) => ({ pk: `SPACE#${a.spaceId}`, prefix: replyPrefix(a.commentId) }),
  },
});
