import { describe, expect, it } from 'vitest';
import { getDocument, OPS, VerbosityLevel } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { useTestApi, newOrg } from './support/api.ts';
import { createChangeRequest, createSpace } from './support/factories.ts';
import { renderPdf } from '../shared/content/pdf/index.ts';
import { MAX_PDF_PAGES } from '../shared/content/pdf/writer.ts';
import { pngFile } from './support/png.ts';
import { inkOfText } from './support/pdf-ink.ts';

/**
 * PDFs in every script: embedded Noto fonts (subset), right-to-left lines, code in a
 * monospace font, images of the revision embedded, the page cap. Text is extracted with
 * PDF.js, a real PDF parser, and compared with the source.
 */

const api = useTestApi();

const SCRIPTS = [
  ['Руководство', 'Привет, мир! Это проверка кириллицы в документе.'],
  ['Οδηγός', 'Γειά σου κόσμε, αυτό είναι ελληνικό κείμενο.'],
  ['日本語', 'これは日本語のテキストです。'],
  ['中文', '这是简体中文的文字。'],
  ['한국어', '이것은 한국어 텍스트입니다.'],
  ['مرحبا', 'هذا نص عربي للاختبار'],
  ['שלום', 'זהו טקסט בעברית לבדיקה'],
] as const;

type Item = { str: string; fontName: string; transform: number[] };

async function parse(bytes: Uint8Array) {
  const doc = await getDocument({ data: bytes.slice(), verbosity: VerbosityLevel.ERRORS, isEvalSupported: false }).promise;
  const pages: { items: Item[]; fonts: Record<string, string>; images: number }[] = [];
  for (let n = 1; n <= doc.numPages; n++) {
    const page = await doc.getPage(n);
    const content = await page.getTextContent();
    const ops = await page.getOperatorList();
    const items = (content.items as Item[]).filter((i) => 'str' in i && i.str.trim() !== '');
    // The embedded font's own name (e.g. ABCDEF+NotoSansMono-Regular), as PDF.js loaded it.
    const fonts = Object.fromEntries(items.map((i) => [i.fontName, String((page.commonObjs.get(i.fontName) as { name?: string }).name)]));
    pages.push({
      items,
      fonts,
      images: ops.fnArray.filter((op) => op === OPS.paintImageXObject).length,
    });
  }
  await doc.destroy();
  return pages;
}

describe('PDF export in every script', () => {
  it('extracts the source text of a page in each script, with right-to-left lines aligned right', async () => {
    const org = await newOrg();
    const space = await createSpace(api, org, { title: 'Handbook', empty: true });
    const cr = await createChangeRequest(api, org, space, { subject: 'Scripts' });
    const changes = SCRIPTS.map(([title, text], i) => ({ operation: 'insert_page', slug: `script-${i}`, document: { markdown: `# ${title}\n\n${text}\n` } }));
    const edited = await api.request('POST', `/spaces/${space.id}/change-requests/${cr.id}/content`, { token: org.admin.token, body: { changes } });
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    const res = await api.request('GET', `/spaces/${space.id}/change-requests/${cr.id}/pdf`, { token: org.admin.token });
    expect(res.status).toBe(200);
    const bytes = new Uint8Array(await (await fetch(res.body.url)).arrayBuffer());
    const pages = await parse(bytes);
    expect(pages).toHaveLength(SCRIPTS.length);
    for (const [index, [title, text]] of SCRIPTS.entries()) {
      // Without the running header and the page number: the page's own title and paragraph.
      const body = pages[index]!.items.map((i) => i.str).filter((s) => !s.startsWith('Handbook') && !/^\d+$/.test(s));
      expect(body, title).toEqual([title, text]);
    }
    // Right-to-left paragraphs end at the right margin, left-to-right ones start at the left one.
    const x = (page: number, str: string) => pages[page]!.items.find((i) => i.str === str)!.transform[4]!;
    expect(x(0, SCRIPTS[0][1])).toBeCloseTo(56, 0);
    expect(x(5, SCRIPTS[5][1])).toBeGreaterThan(200);
    expect(x(6, SCRIPTS[6][1])).toBeGreaterThan(200);
    // Every font is an embedded Noto font (subset by pdf-lib), never a standard font.
    for (const page of pages) for (const name of Object.values(page.fonts)) expect(name).toMatch(/^Noto/);
    expect(pages[2]!.fonts[pages[2]!.items.find((i) => i.str === SCRIPTS[2][1])!.fontName]).toMatch(/NotoSansSC/);
  });

  it('draws every piece of text: each embedded face\'s glyphs render (PDF.js, from the fonts the PDF embeds)', async () => {
    // Text extraction reads the PDF's ToUnicode maps and passes even when an embedded font's
    // glyphs are broken (a corrupt subset drew most letters blank): this renders the pages.
    const org = await newOrg();
    const space = await createSpace(api, org, { title: 'Glyphs', empty: true });
    const cr = await createChangeRequest(api, org, space, { subject: 'Glyphs' });
    const latin = [
      '# Quick brown foxes',
      'Status plain text in a paragraph: the quick brown fox jumps over the lazy dog, 0123456789.',
      '**Bold words jump** and *italic words vex* and ***both at once*** with `inline code` between.',
      '```js\nconst answer = computeEverything({ depth: 42 });\n```',
      '| Column | Value |\n| --- | --- |\n| Zebra | Quartz |',
      'Launch ✅ 🚀 done',
    ].join('\n\n');
    const changes = [
      { operation: 'insert_page', slug: 'latin', document: { markdown: `${latin}\n` } },
      ...SCRIPTS.map(([title, text], i) => ({ operation: 'insert_page', slug: `script-${i}`, document: { markdown: `# ${title}\n\n${text}\n` } })),
    ];
    const edited = await api.request('POST', `/spaces/${space.id}/change-requests/${cr.id}/content`, { token: org.admin.token, body: { changes } });
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    const res = await api.request('GET', `/spaces/${space.id}/change-requests/${cr.id}/pdf`, { token: org.admin.token });
    expect(res.status).toBe(200);
    const drawn = await inkOfText(new Uint8Array(await (await fetch(res.body.url)).arrayBuffer()));
    expect(drawn.length).toBeGreaterThan(20);
    for (const text of ['Quick brown foxes', 'Bold words jump', 'const answer', 'Quartz', ...SCRIPTS.flat()]) {
      expect(drawn.some((d) => d.text.includes(text.slice(0, 6))), text).toBe(true);
    }
    expect(drawn.filter((d) => d.ink === 0).map((d) => d.text)).toEqual([]);
  });

  it('keeps numbers inside right-to-left text in their own order (2024 stays 2024)', async () => {
    const org = await newOrg();
    const space = await createSpace(api, org, { title: 'Numbers', empty: true });
    const cr = await createChangeRequest(api, org, space, { subject: 'Numbers' });
    const lines = ['גרסה 2024 שוחררה ב-15 במאי', 'السعر 123 دولار', 'English then עברית 456 then more'];
    const changes = [{ operation: 'insert_page', title: 'Numbers', document: { markdown: `${lines.join('\n\n')}\n` } }];
    expect((await api.request('POST', `/spaces/${space.id}/change-requests/${cr.id}/content`, { token: org.admin.token, body: { changes } })).status).toBe(200);
    const res = await api.request('GET', `/spaces/${space.id}/change-requests/${cr.id}/pdf`, { token: org.admin.token });
    expect(res.status).toBe(200);
    const [page] = await parse(new Uint8Array(await (await fetch(res.body.url)).arrayBuffer()));
    const body = page!.items.map((i) => i.str).filter((s) => !s.startsWith('Numbers') && !/^\d+$/.test(s));
    // The mixed line is three items, left to right: the Hebrew phrase with its number between the English ones.
    expect(body).toEqual([lines[0], lines[1], 'English then', 'עברית 456', 'then more']);
  });

  it('lays out a mixed line in display order, draws code in a monospace font, embeds images and caps the pages', async () => {
    const paragraph = (text: string) => ({ object: 'block', type: 'paragraph', nodes: [{ object: 'text', leaves: [{ object: 'leaf', text, marks: [] }] }] });
    const code = { object: 'block', type: 'code', nodes: [{ object: 'block', type: 'code-line', nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: 'const x = 1;', marks: [] }] }] }] };
    const image = { object: 'block', type: 'image', isVoid: true, data: { ref: { kind: 'file', file: 'logo' }, caption: 'The logo' }, nodes: [] };
    const now = new Date('2026-01-01T00:00:00Z');
    const page = (id: string, nodes: unknown[]) => ({
      page: { id, type: 'document' as const, title: id, slug: id, createdAt: '', updatedAt: '', pages: [] },
      ancestors: [], document: { object: 'document' as const, data: {}, nodes },
    });
    const bytes = await renderPdf({
      title: 'Mixed', date: now, context: { pageTitle: () => undefined, fileName: () => undefined },
      fileBytes: async (id) => (id === 'logo' ? new Uint8Array(pngFile(40, 20)) : undefined),
      pages: [page('mixed', [paragraph('Say مرحبا بكم to everyone'), code, image])],
    });
    const [first] = await parse(bytes);
    const items = first!.items.filter((i) => i.str !== 'mixed' && !/^\d+$/.test(i.str));
    expect(items.map((i) => i.str)).toEqual(['Say', 'مرحبا بكم', 'to everyone', 'const x = 1;', 'The logo']);
    const [say, arabic, rest] = items;
    expect(say!.transform[4]).toBeLessThan(arabic!.transform[4]!);
    expect(arabic!.transform[4]).toBeLessThan(rest!.transform[4]!);
    const codeItem = items.find((i) => i.str === 'const x = 1;')!;
    expect(first!.fonts[codeItem.fontName]).toMatch(/NotoSansMono/);
    expect(first!.fonts[say!.fontName]).toMatch(/NotoSans-Regular|NotoSans$/);
    expect(first!.fonts[arabic!.fontName]).toMatch(/NotoSansArabic/);
    expect(first!.images).toBe(1);

    const long = Array.from({ length: 4000 }, (_, i) => paragraph(`Paragraph ${i} with enough words to take a line of its own.`));
    const capped = await parse(await renderPdf({
      title: 'Long', date: now, context: { pageTitle: () => undefined, fileName: () => undefined }, pages: [page('long', long)],
    }));
    expect(capped).toHaveLength(MAX_PDF_PAGES);
  }, 60_000);
});
