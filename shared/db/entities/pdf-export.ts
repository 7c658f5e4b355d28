import { defineEntity } from '../entity.ts';

export interface PdfExportItem {
  spaceId: string;
  revisionId: string;
  /** What was rendered: `all`, `tree:<page>` (a page and its subpages) or `page:<page>`, with the renderer version and label hash. */
  selection: string;
  /** sha256 of the PDF bytes (the content-addressed blob). */
  blob: string;
  size: number;
  createdAt: string;
  /**
   * When its pages have integration blocks: a digest of what each printed (a cached render's
   * text, or its props). A request whose blocks would print otherwise (a render cached since)
   * renders the PDF again.
   */
  integrations?: string;
}

/**
 * SPACE#<space> / PDF#<revision>#<selection>: the PDF already rendered for an immutable
 * revision, so a second request presigns the stored blob instead of rendering again.
 * Lives in the space's partition (the purge removes it).
 */
export const pdfExportEntity = defineEntity<PdfExportItem>()({
  type: 'pdf-export',
  key: ({ spaceId, revisionId, selection }: { spaceId: string; revisionId: string; selection: string }) => ({ pk: `SPACE#${spaceId}`, sk: `PDF#${revisionId}#${selection}` }),
});
