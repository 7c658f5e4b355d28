import type { ContentChange } from '../content/change-schema.ts';
import type { ApplyResult } from '../content/changes.ts';
import { walkPages } from '../content/tree.ts';
import { apiLocation } from './urls.ts';
import type { ChangeRequestOutput } from './schemas/change-request.ts';
import type { ContentUpdateChangeOutput, RevisionFileOutput } from './schemas/revision.ts';

/**
 * What a batch of content changes did, page by page (public ChangeRequestContentUpdate,
 * answered with `compat=false`): one entry per affected page in the order the batch first
 * touched it — `created_page` (with the insert's `ref`) for a page the batch inserted,
 * `deleted_page` for a page gone after the batch, `updated_page` otherwise — each with the
 * API address of the page's stored content in the change request.
 */
export function presentContentUpdate(
  changes: ContentChange[],
  applied: Pick<ApplyResult, 'manifest' | 'pages'>,
  changeRequest: ChangeRequestOutput,
  insertedFiles: RevisionFileOutput[],
) {
  // Each insert_page creates one new page, first touched by that insert: the k-th inserted
  // page comes from the k-th insert_page change.
  const insertRefs = changes.flatMap((change) => (change.operation === 'insert_page' ? [change.ref] : []));
  const remaining = new Set([...walkPages(applied.manifest.pages)].map((p) => p.page.id));
  const pageRef = (id: string) => ({
    object: 'page' as const,
    id,
    urls: { location: apiLocation(`/spaces/${changeRequest.space}/change-requests/${changeRequest.id}/content/page/${id}`) },
  });
  let inserted = 0;
  const outcomes = applied.pages.map(({ page, operation }): ContentUpdateChangeOutput => {
    const ref = operation === 'insert_page' ? insertRefs[inserted++] : undefined;
    if (!remaining.has(page)) return { object: 'deleted_page', page };
    if (operation === 'insert_page') return { object: 'created_page', ...(ref ? { ref } : {}), page: pageRef(page) };
    return { object: 'updated_page', page: pageRef(page) };
  });
  return { changeRequest, changes: outcomes, insertedFiles };
}
