import type { ManifestPage, StoredDocument } from '../types.ts';
import type { PDFImage } from '@cantoo/pdf-lib';
import { BODY_SIZE, imageFileIds, renderBlocks, type RenderContext } from './blocks.ts';
import { GREY, LINK, PageLimitReached, PdfWriter } from './writer.ts';
import { safeLinkTarget } from '../../reader/urls.ts';

export type { RenderContext } from './blocks.ts';

export interface PdfPageInput {
  page: ManifestPage;
  /** Root first: printed as a breadcrumb above the title. */
  ancestors: ManifestPage[];
  document: StoredDocument;
}

export interface PdfInput {
  /** The PDF's document title (metadata). */
  title: string;
  /** Small text at the top of every PDF page. */
  header?: string;
  /** Creation date written in the PDF: fixed by the content, so equal content gives equal bytes. */
  date: Date;
  pages: PdfPageInput[];
  context: RenderContext;
  /** The bytes of a file of the revision (images are embedded from them). */
  fileBytes?(fileId: string): Promise<Uint8Array | undefined>;
}

/**
 * Renders content pages into one PDF: each page starts a new PDF page with its breadcrumb,
 * title and description, then its document (headings, paragraphs with bold/italic/code
 * marks as fonts, lists, code in a monospace font, hints as boxes, tables as rows, images
 * of the revision embedded). Deterministic: the same input gives the same bytes. Rendering
 * stops at MAX_PDF_PAGES pages: what does not fit is left out.
 */
export async function renderPdf(input: PdfInput): Promise<Uint8Array> {
  const text = JSON.stringify([input.title, input.header, input.pages.map((p) => [p.page.title, p.page.description, p.ancestors.map((a) => a.title), p.document])]);
  const w = await PdfWriter.create({ title: input.title, date: input.date, text, ...(input.header ? { header: input.header } : {}) });
  const images = new Map<string, PDFImage>();
  for (const fileId of imageFileIds(input.pages.flatMap((p) => p.document.nodes) as Parameters<typeof imageFileIds>[0])) {
    const bytes = await input.fileBytes?.(fileId);
    const image = bytes ? await w.embedImage(bytes) : undefined;
    if (image) images.set(fileId, image);
  }
  const context: RenderContext = { ...input.context, image: (fileId) => images.get(fileId) };
  try {
    renderPages(w, input, context);
  } catch (error) {
    if (!(error instanceof PageLimitReached)) throw error;
  }
  return w.save();
}

function renderPages(w: PdfWriter, input: PdfInput, context: RenderContext): void {
  for (const [index, { page, ancestors, document }] of input.pages.entries()) {
    if (index > 0) w.newPage();
    else w.ensure(0);
    if (ancestors.length > 0) {
      w.paragraph([{ text: ancestors.map((a) => a.title).join(' / '), style: { family: 'sans', size: 8.5, color: GREY } }], { after: 4 });
    }
    w.paragraph([{ text: page.title || 'Untitled', style: { family: 'sans', size: 22, bold: true } }], { after: 6 });
    if (page.description) {
      w.paragraph([{ text: page.description, style: { family: 'sans', size: 11.5, italic: true, color: GREY } }], { after: 8 });
    }
    if (page.type === 'link' && page.href) {
      const target = safeLinkTarget(page.href);
      w.paragraph([
        { text: 'Link: ', style: { family: 'sans', size: BODY_SIZE, bold: true } },
        { text: page.href, style: { family: 'sans', size: BODY_SIZE, color: LINK, underline: true, ...(target ? { link: target } : {}) } },
      ], { after: 6 });
    }
    w.gap(6);
    renderBlocks(w, document.nodes as Parameters<typeof renderBlocks>[1], context);
  }
}
