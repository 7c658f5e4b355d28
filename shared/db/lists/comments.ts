import {
  commentEntity, commentReplyEntity, type CommentItem, type CommentReplyItem, type CommentScope,
} from '../entities/comment.ts';
import type { Where } from '../conditions.ts';

export interface CommentListQuery {
  page?: string;
  limit: number;
  order: 'asc' | 'desc';
  status: 'all' | 'open' | 'resolved';
  targetPage?: string;
  /** Only comments posted by one of these users (at most 100). */
  authors?: string[];
}

/**
 * One page of a scope's comments (the space's own, or one change request's), by postedAt
 * (spec 4.5). One Query:
 * - gsi2 <scope>#COMMENTS (every comment of the scope), or, with `targetPage`, the sparse
 *   gsi3 <scope>#PAGE#<page>#COMMENTS (only that page's comments), where <scope> is
 *   SPACE#<space> or SPACE#<space>#CR#<changeRequest>: a space's list never holds the
 *   comments of its change requests;
 * - `status` and `authors` are FilterExpressions (queryPage refills a page the filter thinned).
 */
export async function listCommentPage(scope: CommentScope, query: CommentListQuery): Promise<{ comments: CommentItem[]; next?: string }> {
  const options = { forward: query.order === 'asc', where: commentFilter(query) };
  const list = query.targetPage
    ? commentEntity.query.byPage({ scope, pageId: query.targetPage }, options)
    : commentEntity.query.byScope({ scope }, options);
  const page = await list.page({ limit: query.limit, cursor: query.page });
  return { comments: page.items, ...(page.next ? { next: page.next } : {}) };
}

/** One page of a comment's replies, oldest first (the order of the thread): one Query of gsi2. */
export async function listReplyPage(
  spaceId: string, commentId: string, query: { page?: string; limit: number },
): Promise<{ replies: CommentReplyItem[]; next?: string }> {
  const page = await commentReplyEntity.query.byComment({ spaceId, commentId }).page({ limit: query.limit, cursor: query.page });
  return { replies: page.items, ...(page.next ? { next: page.next } : {}) };
}

function commentFilter(query: CommentListQuery) {
  const { status, authors } = query;
  if (status === 'all' && !authors?.length) return undefined;
  return (w: Where<CommentItem>) => w.and(status !== 'all' && w.eq('status', status), authors?.length && w.in('postedBy', authors));
}
