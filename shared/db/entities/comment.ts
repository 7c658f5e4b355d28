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

/** Where a comment is anchored. A comment without `page` is on the space as a whole. */
export interface CommentTargetItem {
  /** The space revision that was current when the comment was posted. */
  revision: string;
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

/** gsi2 partition of a space's comments, sorted by `<postedAt>#<id>`. */
export const spaceCommentsPartition = (spaceId: string) => `SPACE#${spaceId}#COMMENTS`;

/** gsi3 partition of the comments anchored on one page of a space (sparse), sorted by `<postedAt>#<id>`. */
export const pageCommentsPartition = (spaceId: string, pageId: string) => `SPACE#${spaceId}#PAGE#${pageId}#COMMENTS`;

/**
 * SPACE#<space> / COMMENT#<id>: a comment lives in its space's partition (one Query or purge
 * reaches it with everything else the space owns). Lookup by id is one GetItem.
 * gsi2: the space's comments by postedAt; gsi3 (only page-anchored comments): a page's comments by postedAt.
 */
export const commentEntity = defineEntity<CommentItem, { spaceId: string; commentId: string }>({
  type: 'comment',
  key: ({ spaceId, commentId }) => ({ pk: `SPACE#${spaceId}`, sk: `COMMENT#${commentId}` }),
  indexes: (c) => ({
    gsi2: { pk: spaceCommentsPartition(c.spaceId), sk: `${c.postedAt}#${c.id}` },
    gsi3: c.target.page ? { pk: pageCommentsPartition(c.spaceId, c.target.page), sk: `${c.postedAt}#${c.id}` } : null,
  }),
});

/** Sort key prefix of every reply of a comment (Query begins_with, e.g. to delete them with it). */
export const replyPrefix = (commentId: string) => `COMMENT#${commentId}#REPLY#`;

/** SPACE#<space> / COMMENT#<comment>#REPLY#<id>: replies sit right after their comment in the partition. */
export const commentReplyEntity = defineEntity<CommentReplyItem, { spaceId: string; commentId: string; replyId: string }>({
  type: 'comment-reply',
  key: ({ spaceId, commentId, replyId }) => ({ pk: `SPACE#${spaceId}`, sk: `${replyPrefix(commentId)}${replyId}` }),
});
