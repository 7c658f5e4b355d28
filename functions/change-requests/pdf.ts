import { operationRoutes, route } from '../../shared/http/route.ts';
import * as op from './operations.ts';
import { notFound } from '../../shared/http/errors.ts';
import { loadChangeRequestContent } from '../../shared/content/change-request-content.ts';
import { loadSpaceContent } from '../../shared/content/source.ts';
import { findPage, slugify } from '../../shared/content/tree.ts';
import { blobDownloadUrl } from '../../shared/content/blob-urls.ts';
import { revisionPdf, type PdfSelection } from '../../shared/content/pdf/export.ts';
import type { LoadedRevision } from '../../shared/content/revisions.ts';

/**
 * GET /spaces/{spaceId}/change-requests/{changeRequestId}/pdf (getChangeRequestPDF) and
 * GET /spaces/{spaceId}/pdf (getSpacePDF, the primary content): the content as a PDF, `{url}`
 * a presigned download valid for an hour. Without `page`: every page; with `page`: that page
 * and its subpages; with `only=true` too: that page alone. Needs read access to the space
 * (404 otherwise, as every read).
 */
export const pdfRoutes = operationRoutes();

interface PdfRequest {
  spaceId: string;
  /** The space's organization (its integration blocks' installations). */
  orgId: string;
  content: LoadedRevision;
  query: { only: boolean; page?: string | undefined };
  /** Where the content is, for a 404: "change request 3", "space abc". */
  where: string;
  /** The PDF's title (without a page), running header and file name, before any page part. */
  title: string;
  header: string;
  filename: string;
}

async function pdfUrl({ spaceId, orgId, content, query, where, title, header, filename }: PdfRequest): Promise<{ url: string }> {
  const { only, page: pageId } = query;
  const located = pageId !== undefined ? findPage(content.manifest, pageId) : undefined;
  if (pageId !== undefined && !located) throw notFound(`No page ${pageId} in ${where}`);
  const selection: PdfSelection = pageId === undefined ? { kind: 'all' } : { kind: only ? 'page' : 'tree', pageId };
  const pdf = await revisionPdf({
    spaceId, orgId, revision: content.revision, manifest: content.manifest, selection, title: located ? located.page.title : title, header,
  });
  return { url: await blobDownloadUrl(pdf.blob, 'application/pdf', `${filename}${located ? `-${located.page.slug}` : ''}.pdf`) };
}

route(pdfRoutes, op.getChangeRequestPDF, async (c) => {
  const { spaceId, changeRequestId } = c.req.valid('param');
  const content = await loadChangeRequestContent(c.var.scope, spaceId, changeRequestId);
  const { changeRequest: cr, space } = content;
  const label = `Change request #${cr.number}${cr.subject ? `: ${cr.subject}` : ''}`;
  return c.json(await pdfUrl({
    spaceId, orgId: space.orgId, content, query: c.req.valid('query'), where: `change request ${changeRequestId}`,
    title: `${space.title} - ${label}`, header: `${space.title} \u00b7 ${label}`,
    filename: `${slugify(space.title)}-change-request-${cr.number}`,
  }));
});

route(pdfRoutes, op.getSpacePDF, async (c) => {
  const { spaceId } = c.req.valid('param');
  const content = await loadSpaceContent(c.var.scope, spaceId);
  const { space } = content;
  return c.json(await pdfUrl({
    spaceId, orgId: space.orgId, content, query: c.req.valid('query'), where: `space ${spaceId}`, title: space.title, header: space.title, filename: slugify(space.title),
  }));
});
