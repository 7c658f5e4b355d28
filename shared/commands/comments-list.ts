import { queryPage, type QueryOptions } from '../db/operations.ts';
import { commentEntity, pageCommentsPartition, spaceCommentsPartition, type CommentItem } from '../db/entities/comment.ts';

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
 * One page of a space's comments, by postedAt (spec 4.5). One Query:
 * - gsi2 SPACE#<space>#COMMENTS (every comment of the space), or, with `targetPage`,
 *   the sparse gsi3 SPACE#<space>#PAGE#<page>#COMMENTS (only that page's comments);
 * - `status` and `authors` are FilterExpressions (queryPage refills a page the filter thinned).
 */
export async function listCommentPage(spaceId: string, query: CommentListQuery): Promise<{ comments: CommentItem[]; next?: string }> {
  const page = await queryPage({
    index: query.targetPage ? 'gsi3' : 'gsi2',
    partition: query.targetPage ? pageCommentsPartition(spaceId, query.targetPage) : spaceCommentsPartition(spaceId),
    forward: query.order === 'asc',
    limit: query.limit,
    cursor: query.page,
    filter: commentFilter(query),
  });
  return { comments: page.records.map((r) => commentEntity.fromRecord(r)), ...(page.next ? { next: page.next } : {}) };
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
