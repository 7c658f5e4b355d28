import { getDocument, VerbosityLevel } from 'pdfjs-dist/legacy/build/pdf.mjs';

/**
 * A PDF read back with PDF.js (a real PDF parser, no script evaluation): each page's text with
 * its whitespace collapsed, all pages joined by newlines, and the document's title.
 */
export async function readPdf(bytes: Uint8Array): Promise<{ pages: string[]; text: string; title?: string }> {
  const doc = await getDocument({ data: bytes.slice(), verbosity: VerbosityLevel.ERRORS, isEvalSupported: false }).promise;
  try {
    const pages: string[] = [];
    for (let n = 1; n <= doc.numPages; n++) {
      const content = await (await doc.getPage(n)).getTextContent();
      pages.push(content.items.map((item) => ('str' in item ? item.str : '')).join(' ').replace(/\s+/g, ' '));
    }
    const info = (await doc.getMetadata()).info as { Title?: string };
    return { pages, text: pages.join('\n'), title: info.Title };
  } finally {
    await doc.destroy();
  }
}
