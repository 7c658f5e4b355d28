import { operationRoutes, route } from '../../shared/http/route.ts';
import * as op from './operations.ts';
import { notFound } from '../../shared/http/errors.ts';
import { loadChangeRequestContent } from '../../shared/content/change-request-content.ts';
import { findPage, slugify } from '../../shared/content/tree.ts';
import { blobDownloadUrl } from '../../shared/content/blob-urls.ts';
import { revisionPdf, type PdfSelection } from '../../shared/content/pdf/export.ts';

/**
 * GET /spaces/{spaceId}/change-requests/{changeRequestId}/pdf (getChangeRequestPDF): the
 * change request's content as a PDF, `{url}` a presigned download valid for an hour.
 * Without `page`: every page; with `page`: that page and its subpages; with `only=true`
 * too: that page alone. Needs read access to the space (404 otherwise, as every read).
 */
export const pdfRoutes = operationRoutes();

route(pdfRoutes, op.getChangeRequestPDF, async (c) => {
    const { spaceId, changeRequestId } = c.req.valid('param');
    const { only, page: pageId } = c.req.valid('query');
    const content = await loadChangeRequestContent(c.var.scope, spaceId, changeRequestId);
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
