import { getBytesBlob } from '../../shared/content/blobs.ts';
import { renderPdf } from '../../shared/content/pdf/index.ts';
import { MAX_EMBEDDED_IMAGE_BYTES } from '../../shared/content/pdf/export.ts';
import { walkPages, type LocatedPage } from '../../shared/content/tree.ts';
import type { Manifest, StoredDocument } from '../../shared/content/types.ts';
import { shownDocument } from '../../shared/reader/adaptive.ts';

/**
 * `<page>.pdf` (the `pdf` page action): the page rendered by the service's PDF module
 * (shared/content/pdf), on request and never stored: the reader stays read-only; browsers
 * and shared caches keep it under the page's own ETag and Cache-Control.
 */

/** The PDF of one page of a site space (its variables evaluated by the caller). */
export async function pagePdf(input: { located: LocatedPage; manifest: Manifest; document: StoredDocument; siteTitle: string; visitor: Record<string, unknown> }): Promise<Uint8Array> {
  const { located, manifest } = input;
  const titles = new Map([...walkPages(manifest.pages)].map(({ page }) => [page.id, page.title]));
  const files = new Map(manifest.files.map((f) => [f.id, f]));
  const updated = new Date(located.page.updatedAt);
  // `if` blocks as the HTML page shows them to this visitor: what the page hides, the PDF leaves out.
  const document = shownDocument(input.document, input.visitor);
  return renderPdf({
    title: `${located.page.title} · ${input.siteTitle}`,
    header: input.siteTitle,
    // Fixed by the content: the same page gives the same bytes.
    date: Number.isNaN(updated.getTime()) ? new Date(0) : updated,
    pages: [{ page: located.page, ancestors: located.ancestors, document }],
    context: { pageTitle: (id) => titles.get(id), fileName: (id) => files.get(id)?.name },
    fileBytes: async (id) => {
      const file = files.get(id);
      return file && file.size <= MAX_EMBEDDED_IMAGE_BYTES ? getBytesBlob(file.blob) : undefined;
    },
  });
}

/** `Content-Disposition` of a page's PDF: a download named `<slug>.pdf` (no viewer runs under the reader's origin and policy). */
export const pdfDisposition = (located: LocatedPage) => `attachment; filename*=UTF-8''${encodeURIComponent(`${located.page.slug || 'page'}.pdf`)}`;
