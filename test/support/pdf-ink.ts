import { getDocument, VerbosityLevel } from 'pdfjs-dist/legacy/build/pdf.mjs';

type CanvasFactory = { create(width: number, height: number): { canvas: { width: number; height: number }; context: CanvasRenderingContext2D } };

/**
 * Renders a PDF's pages with PDF.js (its glyphs drawn from the fonts the PDF embeds) and
 * answers, for each piece of text PDF.js finds, whether its box holds ink. Text extraction
 * reads the PDF's ToUnicode maps and succeeds even when an embedded font's glyphs are broken;
 * this sees what a reader sees.
 */
export async function inkOfText(bytes: Uint8Array, { scale = 2 } = {}): Promise<{ text: string; ink: number; page: number }[]> {
  const doc = await getDocument({ data: bytes.slice(), verbosity: VerbosityLevel.ERRORS, isEvalSupported: false }).promise;
  try {
    const out: { text: string; ink: number; page: number }[] = [];
    for (let n = 1; n <= doc.numPages; n++) {
      const page = await doc.getPage(n);
      const viewport = page.getViewport({ scale });
      // PDF.js's own canvas factory: in Node, @napi-rs/canvas (pdfjs-dist's optional dependency).
      const { canvas, context } = (doc.canvasFactory as unknown as CanvasFactory).create(Math.ceil(viewport.width), Math.ceil(viewport.height));
      await page.render({ canvas, canvasContext: context, viewport } as never).promise;
      const { data, width, height } = context.getImageData(0, 0, canvas.width, canvas.height);
      const content = await page.getTextContent();
      for (const item of content.items) {
        if (!('str' in item) || !item.str.trim()) continue;
        // The item's baseline box in device space: from its transform, its width and font height.
        const [x0, y0] = viewport.convertToViewportPoint(item.transform[4], item.transform[5]);
        const [x1, y1] = viewport.convertToViewportPoint(item.transform[4] + item.width, item.transform[5] + item.height);
        const left = Math.max(0, Math.floor(Math.min(x0, x1))), right = Math.min(width, Math.ceil(Math.max(x0, x1)));
        const top = Math.max(0, Math.floor(Math.min(y0, y1))), bottom = Math.min(height, Math.ceil(Math.max(y0, y1)));
        let ink = 0;
        for (let y = top; y < bottom; y++) {
          for (let x = left; x < right; x++) {
            const i = (y * width + x) * 4;
            // Dark enough against the page (text is drawn dark on white or light boxes).
            if (data[i + 3]! > 0 && data[i]! + data[i + 1]! + data[i + 2]! < 3 * 160) ink++;
          }
        }
        out.push({ text: item.str, ink, page: n });
      }
      page.cleanup();
    }
    return out;
  } finally {
    await doc.destroy();
  }
}
