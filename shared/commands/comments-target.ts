import type { SpaceItem } from '../db/entities/space.ts';
import type { CommentTargetItem } from '../db/entities/comment.ts';
import { badRequest } from '../http/errors.ts';
import { loadRevision } from '../content/revisions.ts';
import { findPage } from '../content/tree.ts';
import { getJsonBlob } from '../content/blobs.ts';

export interface TargetRequest {
  page?: string;
  node?: string;
  tableCell?: { record: string; definition: string };
}

/**
 * Where a new comment is anchored, checked against the space's current revision: `page`
 * must be a page of it (400 `page: ...`), `node` the key of a block of that page's document
 * (400 `node: ...`). Without `page` the comment is on the space; reading the revision is only
 * needed when a page is named.
 */
export async function resolveCommentTarget(space: SpaceItem, request: TargetRequest): Promise<CommentTargetItem> {
  const revision = space.revision ?? '';
  if (request.page === undefined) return { revision };
  const loaded = space.revision ? await loadRevision(space.id, space.revision) : undefined;
  const located = loaded ? findPage(loaded.manifest, request.page) : undefined;
  if (!located) throw badRequest(`page: no page ${request.page} in the space's current revision`);
  if (request.node !== undefined) {
    const document = located.page.document ? await getJsonBlob<unknown>(located.page.document) : undefined;
    if (!hasBlockKey(document, request.node)) throw badRequest(`node: no block with key ${request.node} on page ${request.page}`);
  }
  return {
    revision,
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
