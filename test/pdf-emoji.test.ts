import { describe, expect, it } from 'vitest';
import { getDocument, OPS, VerbosityLevel } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { PDFDict, PDFDocument, PDFName } from '@cantoo/pdf-lib';
import { useTestApi, newOrg, type TestOrg } from './support/api.ts';
import { createChangeRequest, createSpace } from './support/factories.ts';
import { readPdf } from './support/pdf-text.ts';

/**
 * Emoji in PDFs: drawn with the monochrome Noto Emoji face wherever they are written
 * (paragraph, heading, hint, table cell, bold, code), sequences kept whole, and the face
 * embedded only when a document has emoji. Text is read back with PDF.js. A sequence whose
 * font glyph absorbs the variation selector may map back with or without U+FE0F: the
 * comparison ignores it (a PDF reader copies the same emoji either way).
 */

const api = useTestApi();

const EMOJI = ['✅', '⚠️', '🚀', '👩‍💻', '🇫🇷', '1️⃣'];
const LINE = EMOJI.join(' ');

const MARKDOWN = `# Launch 🚀 checklist

Status ${LINE} in a paragraph.

{% hint style="warning" %}
Hint ${LINE} in a box.
{% endhint %}

| Step | State |
| --- | --- |
| Cell ${LINE} end | done |

**Bold ${LINE} words** and \`code ${LINE} here\` and a thumb 👍🏽 up.
`;

async function pagePdf(org: TestOrg, title: string, markdown: string): Promise<Uint8Array> {
  const space = await createSpace(api, org, { title, empty: true });
  const cr = await createChangeRequest(api, org, space, { subject: title });
  const changes = [{ operation: 'insert_page', title, document: { markdown } }];
  const edited = await api.request('POST', `/spaces/${space.id}/change-requests/${cr.id}/content`, { token: org.admin.token, body: { changes } });
  expect(edited.status, JSON.stringify(edited.body)).toBe(200);
  const res = await api.request('GET', `/spaces/${space.id}/change-requests/${cr.id}/pdf`, { token: org.admin.token });
  expect(res.status).toBe(200);
  return new Uint8Array(await (await fetch(res.body.url)).arrayBuffer());
}

/** The BaseFont names of every font the file embeds (used or not), read with pdf-lib. */
async function embeddedFonts(bytes: Uint8Array): Promise<string[]> {
  const doc = await PDFDocument.load(bytes, { updateMetadata: false });
  const names: string[] = [];
  for (const [, object] of doc.context.enumerateIndirectObjects()) {
    if (object instanceof PDFDict && object.get(PDFName.of('Type')) === PDFName.of('Font') && object.get(PDFName.of('Subtype')) === PDFName.of('Type0')) {
      names.push(String(object.get(PDFName.of('BaseFont'))));
    }
  }
  return names;
}

/** Each text item's string with the name of the font PDF.js drew it with, and how many glyphs were .notdef (a box). */
async function drawn(bytes: Uint8Array) {
  const doc = await getDocument({ data: bytes.slice(), verbosity: VerbosityLevel.ERRORS, isEvalSupported: false }).promise;
  const items: { str: string; font: string }[] = [];
  let missing = 0;
  for (let n = 1; n <= doc.numPages; n++) {
    const page = await doc.getPage(n);
    const content = await page.getTextContent();
    // The operator list loads the fonts, whose embedded names the items are then matched to.
    const ops = await page.getOperatorList();
    for (const item of content.items) {
      if (!('str' in item) || item.str.trim() === '') continue;
      items.push({ str: item.str, font: String((page.commonObjs.get(item.fontName) as { name?: string }).name) });
    }
    for (const [index, op] of ops.fnArray.entries()) {
      if (op !== OPS.showText) continue;
      const glyphs = ops.argsArray[index]![0] as ({ originalCharCode?: number } | number)[];
      missing += glyphs.filter((g) => typeof g === 'object' && g !== null && g.originalCharCode === 0).length;
    }
  }
  await doc.destroy();
  return { items, missing };
}

const noVs16 = (text: string) => text.replace(/\ufe0f/g, '');

describe('PDF emoji', () => {
  it('prints emoji and emoji sequences in a paragraph, heading, hint, table cell, bold and code with the Noto Emoji face', async () => {
    const org = await newOrg();
    const bytes = await pagePdf(org, 'Emoji', MARKDOWN);
    const { text } = await readPdf(bytes);
    for (const expected of ['Launch 🚀 checklist', `Status ${LINE} in a paragraph.`, `Hint ${LINE} in a box.`, `Cell ${LINE} end`, `Bold ${LINE} words`, `code ${LINE} here`]) {
      expect(noVs16(text), expected).toContain(noVs16(expected));
    }
    // The monochrome font draws a skin tone as the plain emoji: the emoji is kept, not dropped.
    expect(text).toMatch(/thumb 👍\u{1f3fd}? up/u);
    const { items, missing } = await drawn(bytes);
    // Every emoji, even inside bold text and code, is drawn with the emoji face; the words around it are not.
    for (const emoji of EMOJI) {
      const found = items.filter((i) => noVs16(i.str).includes(noVs16(emoji)));
      // Paragraph, hint, table cell, bold and code (and the heading for the rocket).
      expect(found.length, emoji).toBeGreaterThanOrEqual(5);
      for (const item of found) expect(item.font, `${emoji} in "${item.str}"`).toMatch(/NotoEmoji/);
    }
    expect(items.find((i) => i.str.includes('Bold'))!.font).toMatch(/NotoSans-Bold/);
    expect(items.find((i) => i.str.includes('code'))!.font).toMatch(/NotoSansMono/);
    // Sequences are whole glyphs: no variation selector, joiner or keycap drawn as a missing-glyph box.
    expect(missing).toBe(0);
    expect((await embeddedFonts(bytes)).some((name) => /NotoEmoji/.test(name))).toBe(true);
  }, 60_000);

  it('does not embed the emoji face in a document without emoji', async () => {
    const org = await newOrg();
    const bytes = await pagePdf(org, 'Plain', '# Plain\n\nNo pictures here: © 2026, arrows → and digits 1 2 3 # *.\n');
    expect((await readPdf(bytes)).text).toContain('No pictures here: © 2026, arrows → and digits 1 2 3 # *.');
    const fonts = await embeddedFonts(bytes);
    expect(fonts.length).toBeGreaterThan(0);
    expect(fonts.filter((name) => /NotoEmoji/.test(name))).toEqual([]);
  }, 60_000);
});
