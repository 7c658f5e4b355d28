import { queryPage, type QueryOptions } from '../db/operations.ts';
import {
  commentEntity, commentRepliesPartition, commentReplyEntity, pageCommentsPartition, scopeCommentsPartition,
  type CommentItem, type CommentReplyItem, type CommentScope,
} from '../db/entities/comment.ts';

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
  const page = await queryPage({
    index: query.targetPage ? 'gsi3' : 'gsi2',
    partition: query.targetPage ? pageCommentsPartition(scope, query.targetPage) : scopeCommentsPartition(scope),
    forward: query.order === 'asc',
    limit: query.limit,
    cursor: query.page,
    filter: commentFilter(query),
  });
  return { comments: page.records.map((r) => commentEntity.fromRecord(r)), ...(page.next ? { next: page.next } : {}) };
}

/** One page of a comment's replies, oldest first (the order of the thread): one Query of gsi2. */
export async function listReplyPage(
  spaceId: string, commentId: string, query: { page?: string; limit: number },
): Promise<{ replies: CommentReplyItem[]; next?: string }> {
  const page = await queryPage({
    index: 'gsi2', partition: commentRepliesPartition(spaceId, commentId), forward: true, limit: query.limit, cursor: query.page,
  });
  return { replies: page.records.map((r) => commentReplyEntity.fromRecord(r)), ...(page.next ? { next: page.next } : {}) };
}

function commentFilter(query: CommentListQuery): QueryOptions['filter'] {
  const parts: string[] = [];
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  if (query.status !== 'all') {
    parts.push('#status = :status');
    names['#status'] = 'status';
    values[':status'] = query.status;
  }
  if (query.authors?.length) {
    const placeholders = query.authors.map((author, i) => {
      values[`:author${i}`] = author;
      return `:author${i}`;
    });
    parts.push(`#postedBy IN (${placeholders.join(', ')})`);
    names['#postedBy'] = 'postedBy';
  }
  return parts.length ? { expression: parts.join(' AND '), names, values } : undefined;
}
