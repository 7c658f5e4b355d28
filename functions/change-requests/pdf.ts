import * as v from 'valibot';
import type { GroupApp } from '../../shared/http/group-app.ts';
import { validate } from '../../shared/http/validate.ts';
import { notFound } from '../../shared/http/errors.ts';
import { id, queryBoolean } from '../../shared/http/schemas.ts';
import { loadChangeRequestContent } from '../../shared/content/change-request-content.ts';
import { findPage, slugify } from '../../shared/content/tree.ts';
import { blobDownloadUrl } from '../../shared/content/blob-urls.ts';
import { revisionPdf, type PdfSelection } from '../../shared/content/pdf/export.ts';
import { changeRequestParams } from './schemas.ts';

/** `only` (default false) limits the PDF to `page`, which it then requires. */
export const pdfQuery = v.pipe(
  v.object({
    only: v.optional(queryBoolean, 'false'),
    page: v.optional(id),
  }),
  v.forward(v.partialCheck([['only'], ['page']], (q) => !q.only || q.page !== undefined, 'is required when only is true'), ['page']),
);

/**
 * GET /spaces/{spaceId}/change-requests/{changeRequestId}/pdf (getChangeRequestPDF): the
 * change request's content as a PDF, `{url}` a presigned download valid for an hour.
 * Without `page`: every page; with `page`: that page and its subpages; with `only=true`
 * too: that page alone. Needs read access to the space (404 otherwise, as every read).
 */
export function mountPdf(app: GroupApp): void {
  app.get('/spaces/:spaceId/change-requests/:changeRequestId/pdf',
    validate('param', changeRequestParams), validate('query', pdfQuery), async (c) => {
      const { spaceId, changeRequestId } = c.req.valid('param');
      const { only, page: pageId } = c.req.valid('query');
      const content = await loadChangeRequestContent(c, spaceId, changeRequestId);
      const { changeRequest: cr, space } = content;
      const located = pageId !== undefined ? findPage(content.manifest, pageId) : undefined;
      if (pageId !== undefined && !located) throw notFound(`No page ${pageId} in change request ${changeRequestId}`);
      const selection: PdfSelection = pageId === undefined ? { kind: 'all' } : { kind: only ? 'page' : 'tree', pageId };
      const label = `Change request #${cr.number}${cr.subject ? `: ${cr.subject}` : ''}`;
      const pdf = await revisionPdf({
        spaceId,
        revision: content.revision,
        manifest: content.manifest,
        selection,
        title: located ? located.page.title : `${space.title} - ${label}`,
        header: `${space.title} \u00b7 ${label}`,
      });
      const filename = `${slugify(space.title)}-change-request-${cr.number}${located ? `-${located.page.slug}` : ''}.pdf`;
      return c.json({ url: await blobDownloadUrl(pdf.blob, 'application/pdf', filename) });
    });
}
