import type { CommentScope, CommentTargetItem } from '../../db/entities/comment.ts';
import { badRequest } from '../../http/errors.ts';
import { loadRevision } from '../../content/revisions.ts';
import { findPage } from '../../content/tree.ts';
import { getJsonBlob } from '../../content/blobs.ts';

export interface TargetRequest {
  page?: string;
  node?: string;
  tableCell?: { record: string; definition: string };
}

/**
 * The content a scope's comments are anchored in: the space's current revision for the
 * space's own comments, the change request's current revision for a change request's.
 */
export interface CommentContent {
  scope: CommentScope;
  /** Current revision of the space or change request (a space may have none yet). */
  revision: string | undefined;
  /** How errors name it: "the space's current revision", "the change request's current revision". */
  revisionName: string;
}

/**
 * Where a new comment is anchored, checked against its scope's current revision: `page`
 * must be a page of it (400 `page: ...`), `node` the key of a block of that page's document
 * (400 `node: ...`). Without `page` the comment is on the space or change request as a whole;
 * reading the revision is only needed when a page is named. A change request's comment
 * carries `changeRequest`.
 */
export async function resolveCommentTarget(content: CommentContent, request: TargetRequest): Promise<CommentTargetItem> {
  const { scope } = content;
  const revision = content.revision ?? '';
  const base: CommentTargetItem = { revision, ...(scope.changeRequestId !== undefined ? { changeRequest: scope.changeRequestId } : {}) };
  if (request.page === undefined) return base;
  const loaded = content.revision ? await loadRevision(scope.spaceId, content.revision) : undefined;
  const located = loaded ? findPage(loaded.manifest, request.page) : undefined;
  if (!located) throw badRequest(`page: no page ${request.page} in ${content.revisionName}`);
  if (request.node !== undefined) {
    const document = located.page.document ? await getJsonBlob<unknown>(located.page.document) : undefined;
    if (!hasBlockKey(document, request.node)) throw badRequest(`node: no block with key ${request.node} on page ${request.page}`);
  }
  return {
    ...base,
    page: request.page,
    ...(request.node !== undefined ? { node: request.node } : {}),
    ...(request.tableCell ? { tableCell: { record: request.tableCell.record, definition: request.tableCell.definition } } : {}),
  };
}

/** Whether a document holds a node whose `key` is `key`, at any depth (nodes, fragments, ...). */
function hasBlockKey(value: unknown, key: string): boolean {
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const current = stack.pop();
    if (Array.isArray(current)) {
      stack.push(...current);
    } else if (current && typeof current === 'object') {
      if ((current as { key?: unknown }).key === key) return true;
      stack.push(...Object.values(current));
    }
  }
  return false;
}
