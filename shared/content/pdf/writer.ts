import {
  BlendMode, PDFDocument, PDFString, rgb, type PDFFont, type PDFImage, type PDFPage,
} from '@cantoo/pdf-lib';
import * as fontkit from 'fontkit';
import bidiFactory, { type Bidi } from 'bidi-js';
import { faceRuns, characters, neededFaces } from './text.ts';
import { FACE_FEATURES, fontBytes, type FontFace } from './fonts.ts';

/**
 * A small flowing-layout writer over pdf-lib: runs of styled text are broken into lines
 * that fit the current column (words stay whole unless longer than a line), lines are
 * placed top to bottom and a new PDF page starts whenever the next line would cross the
 * bottom margin. Boxes (hints, code, quotes), list markers and tables are built on that.
 * Text is drawn with embedded Noto fonts, subset per document (fonts.ts): every script the
 * fonts cover, right-to-left runs ordered by the Unicode bidirectional algorithm (bidi-js)
 * and right-to-left paragraphs aligned right. A document has at most MAX_PDF_PAGES pages.
 */

export type Color = readonly [number, number, number];
export type FontFamily = 'sans' | 'mono';

export interface TextStyle {
  family: FontFamily;
  size: number;
  bold?: boolean;
  italic?: boolean;
  color?: Color;
  underline?: boolean;
  strike?: boolean;
  /** An external URL: the text becomes a clickable link. */
  link?: string;
}

export interface Run {
  text: string;
  style: TextStyle;
}

interface Piece {
  text: string;
  style: TextStyle;
  font: PDFFont;
  width: number;
}

export interface Line {
  pieces: Piece[];
  width: number;
  height: number;
  /** From the top of the line to the baseline. */
  baseline: number;
  /** A right-to-left line: aligned right. */
  rtl?: boolean;
}

export interface BoxStyle {
  /** Background, drawn with a multiply blend so the text drawn before stays visible. */
  fill?: Color;
  border?: Color;
  /** A bar along the left edge (hints, quotes). */
  bar?: Color;
  padX: number;
  padY: number;
}

export const BLACK: Color = [0.1, 0.1, 0.12];
export const GREY: Color = [0.42, 0.44, 0.48];
export const LINK: Color = [0.1, 0.33, 0.75];

const PAGE_WIDTH = 595.28; // A4
const PAGE_HEIGHT = 841.89;
const MARGIN_X = 56;
const MARGIN_TOP = 64;
const MARGIN_BOTTOM = 64;
const LINE_HEIGHT = 1.38;

/** Pages of one PDF at most: rendering stops there (PageLimitReached). */
export const MAX_PDF_PAGES = 100;

export class PageLimitReached extends Error {
  constructor() {
    super(`A PDF has at most ${MAX_PDF_PAGES} pages`);
  }
}

// The package's types describe its ESM default export; Node resolves its CommonJS build, whose export is the same factory.
const bidi = (bidiFactory as unknown as () => Bidi)();

/** The face of a style (Noto Sans Mono has no italic). */
function primaryFace(style: TextStyle): FontFace {
  if (style.family === 'mono') return style.bold ? 'mono-bold' : 'mono';
  return `sans${style.bold ? '-bold' : ''}${style.italic ? '-italic' : ''}` as FontFace;
}

const color = (c: Color | undefined) => rgb(...(c ?? BLACK));

export interface WriterOptions {
  title: string;
  /** Small grey text at the top of every page. */
  header?: string;
  /** Fixed dates keep the bytes a function of the content (content-addressed storage). */
  date: Date;
  /** Every text the document will hold (titles, documents as JSON): decides which fonts are embedded. */
  text?: string;
}

export class PdfWriter {
  readonly top = PAGE_HEIGHT - MARGIN_TOP;
  readonly bottom = MARGIN_BOTTOM;
  left = MARGIN_X;
  right = PAGE_WIDTH - MARGIN_X;
  /** Top of the free space on the current page (PDF coordinates: 0 is the bottom edge). */
  y = this.top;

  private readonly pages: PDFPage[] = [];
  private readonly fonts = new Map<FontFace, PDFFont>();
  private marker: { text: string; style: TextStyle; x: number } | undefined;

  private readonly doc: PDFDocument;
  private readonly options: WriterOptions;

  private constructor(doc: PDFDocument, options: WriterOptions) {
    this.doc = doc;
    this.options = options;
  }

  static async create(options: WriterOptions): Promise<PdfWriter> {
    const doc = await PDFDocument.create({ updateMetadata: false });
    doc.registerFontkit(fontkit);
    doc.setTitle(options.title, { showInWindowTitleBar: true });
    doc.setProducer('docs-publishing-service (pdf-lib)');
    doc.setCreator('docs-publishing-service');
    doc.setCreationDate(options.date);
    doc.setModificationDate(options.date);
    const writer = new PdfWriter(doc, options);
    await writer.embedFonts(neededFaces(options.text ?? `${options.title} ${options.header ?? ''}`));
    return writer;
  }

  async save(): Promise<Uint8Array> {
    if (this.pages.length === 0) this.newPage();
    return this.doc.save();
  }

  get width(): number {
    return this.right - this.left;
  }

  /** True when nothing was placed on the current page yet. */
  get atPageTop(): boolean {
    return this.pages.length > 0 && this.y >= this.top;
  }

  newPage(): void {
    if (this.pages.length >= MAX_PDF_PAGES) throw new PageLimitReached();
    const page = this.doc.addPage([PAGE_WIDTH, PAGE_HEIGHT]);
    this.pages.push(page);
    this.y = this.top;
    const small = { family: 'sans', size: 8, color: GREY } as const;
    if (this.options.header) {
      const [line] = this.layout([{ text: this.options.header, style: small }], PAGE_WIDTH - 2 * MARGIN_X, { maxLines: 1 });
      if (line) this.drawLine(page, line, MARGIN_X, PAGE_HEIGHT - MARGIN_TOP / 2 - 4);
    }
    const [number] = this.layout([{ text: String(this.pages.length), style: small }], PAGE_WIDTH);
    if (number) this.drawLine(page, number, (PAGE_WIDTH - number.width) / 2, MARGIN_BOTTOM / 2 + 4);
  }

  /** Starts a new page unless `height` still fits on this one. */
  ensure(height: number): void {
    if (this.pages.length === 0 || (this.y - height < this.bottom && !this.atPageTop)) this.newPage();
  }

  /** Vertical space between blocks (none at the top of a page). */
  gap(height: number): void {
    if (this.pages.length === 0 || this.atPageTop) return;
    this.y = Math.max(this.bottom, this.y - height);
  }

  /** Runs `body` with the column narrowed by `left` and `right` points. */
  indent(left: number, body: () => void, right = 0): void {
    this.left += left;
    this.right -= right;
    try {
      body();
    } finally {
      this.left -= left;
      this.right += right;
    }
  }

  /** A list marker ("•", "3.") drawn `offset` points left of the next line placed. */
  setMarker(text: string, style: TextStyle, offset: number): void {
    this.marker = { text, style, x: this.left - offset };
  }

  /** Places lines in the current column, breaking pages between lines. */
  placeLines(lines: Line[], options: { x?: number } = {}): void {
    for (const line of lines) {
      this.ensure(line.height);
      const page = this.pages[this.pages.length - 1]!;
      this.drawLine(page, line, options.x ?? (line.rtl ? this.right - line.width : this.left), this.y);
      this.y -= line.height;
    }
  }

  paragraph(runs: Run[], options: { before?: number; after?: number; keepWithNext?: number } = {}): void {
    if (!runs.some((r) => r.text.trim() !== '')) return;
    const lines = this.layout(runs, this.width);
    this.gap(options.before ?? 0);
    if (options.keepWithNext) this.ensure(lines.reduce((sum, l) => sum + l.height, 0) + options.keepWithNext);
    this.placeLines(lines);
    this.gap(options.after ?? 0);
  }

  /** Content drawn inside a box that follows it across page breaks. */
  box(style: BoxStyle, body: () => void): void {
    this.ensure(style.padY * 2 + 24);
    const x = this.left;
    const width = this.width;
    const start = { page: this.pages.length - 1, y: this.y };
    this.y -= style.padY;
    this.indent(style.padX + (style.bar ? 3 : 0), body, style.padX);
    this.y = Math.max(this.bottom, this.y - style.padY);
    const end = { page: this.pages.length - 1, y: this.y };
    for (let index = start.page; index <= end.page; index++) {
      const top = index === start.page ? start.y : this.top;
      const bottom = index === end.page ? end.y : this.bottom;
      if (top - bottom < 1) continue;
      const page = this.pages[index]!;
      const rect = { x, y: bottom, width, height: top - bottom };
      if (style.fill) page.drawRectangle({ ...rect, color: rgb(...style.fill), blendMode: BlendMode.Multiply });
      if (style.border) page.drawRectangle({ ...rect, borderColor: rgb(...style.border), borderWidth: 0.6 });
      if (style.bar) page.drawRectangle({ x, y: bottom, width: 3, height: top - bottom, color: rgb(...style.bar) });
    }
  }

  /** A thin horizontal line across the column. */
  rule(): void {
    this.ensure(12);
    const page = this.pages[this.pages.length - 1]!;
    this.y -= 6;
    page.drawLine({ start: { x: this.left, y: this.y }, end: { x: this.right, y: this.y }, thickness: 0.6, color: rgb(0.8, 0.81, 0.84) });
    this.y -= 6;
  }

  /**
   * Rows of cells, each cell runs of text wrapped in its column. Column widths follow the
   * widest content (within limits) and fill the column; a row never splits across pages
   * (the header row repeats on the next page), except a row taller than a page, whose
   * cells are then written one after the other.
   */
  table(rows: Run[][][], options: { header: boolean }): void {
    const columns = Math.max(0, ...rows.map((r) => r.length));
    if (columns === 0) return;
    const pad = 4;
    const width = this.width;
    const natural = Array.from({ length: columns }, (_, c) => {
      const widest = Math.max(0, ...rows.map((row) => (row[c] ?? []).reduce((sum, run) => sum + this.measure(run), 0)));
      return Math.min(Math.max(widest + 2 * pad, 40), width * 0.6);
    });
    const total = natural.reduce((a, b) => a + b, 0);
    const widths = natural.map((n) => (n * width) / total);
    const layoutRow = (row: Run[][]) => {
      const cells = widths.map((w, c) => this.layout(row[c] ?? [], w - 2 * pad));
      const height = Math.max(...cells.map((lines) => lines.reduce((sum, l) => sum + l.height, 0))) + 2 * pad;
      return { cells, height };
    };
    const drawRow = (row: ReturnType<typeof layoutRow>, header: boolean) => {
      const page = this.pages[this.pages.length - 1]!;
      let x = this.left;
      for (const [c, lines] of row.cells.entries()) {
        let y = this.y - pad;
        for (const line of lines) {
          this.drawLine(page, line, x + pad, y);
          y -= line.height;
        }
        const rect = { x, y: this.y - row.height, width: widths[c]!, height: row.height };
        if (header) page.drawRectangle({ ...rect, color: rgb(0.93, 0.94, 0.96), blendMode: BlendMode.Multiply });
        page.drawRectangle({ ...rect, borderColor: rgb(0.75, 0.77, 0.8), borderWidth: 0.6 });
        x += widths[c]!;
      }
      this.y -= row.height;
    };
    const headerRow = options.header && rows[0] ? layoutRow(rows[0]) : undefined;
    for (const [index, row] of rows.entries()) {
      const laid = index === 0 && headerRow ? headerRow : layoutRow(row);
      if (laid.height > this.top - this.bottom - (headerRow?.height ?? 0)) {
        for (const cell of row) this.paragraph(cell, { after: 4 });
        continue;
      }
      if (this.y - laid.height < this.bottom || this.pages.length === 0) {
        this.newPage();
        if (headerRow && index > 0) drawRow(headerRow, true);
      }
      drawRow(laid, index === 0 && options.header);
    }
  }

  /**
   * Breaks runs into lines of at most `width` points. Words (text between spaces, even
   * across runs of different styles) stay whole unless wider than a line; "\n" breaks the
   * line. With `preserveSpaces`, spaces at the start of a source line are kept (code).
   */
  layout(runs: Run[], width: number, options: { preserveSpaces?: boolean; maxLines?: number } = {}): Line[] {
    const baseSize = runs[0]?.style.size ?? 10;
    type Token = { kind: 'word' | 'space' | 'break'; piece: Piece };
    const tokens: Token[] = [];
    for (const run of runs) {
      for (const { face, text } of faceRuns(run.text, primaryFace(run.style), { keepNewlines: true, embedded: this.embedded })) {
        const font = this.font(face);
        for (const [part] of text.matchAll(/\n| +|[^ \n]+/g)) {
          const kind = part === '\n' ? 'break' : part.startsWith(' ') ? 'space' : 'word';
          tokens.push({ kind, piece: { text: part, style: run.style, font, width: kind === 'break' ? 0 : font.widthOfTextAtSize(part, run.style.size) } });
        }
      }
    }
    const lines: Line[] = [];
    let current: Piece[] = [];
    let currentWidth = 0;
    let spaces: Piece[] = [];
    let sourceLineStart = true;
    const push = (piece: Piece) => {
      current.push(piece);
      currentWidth += piece.width;
    };
    const flush = () => {
      lines.push(makeLine(current, baseSize));
      current = [];
      currentWidth = 0;
      spaces = [];
    };
    for (let i = 0; i < tokens.length; i++) {
      const token = tokens[i]!;
      if (token.kind === 'break') {
        flush();
        sourceLineStart = true;
        continue;
      }
      if (token.kind === 'space') {
        // Runs of spaces read as one outside code (as HTML renders them).
        if (current.length > 0 && (options.preserveSpaces || spaces.length === 0)) spaces.push(oneSpace(token.piece, options.preserveSpaces));
        else if (options.preserveSpaces && sourceLineStart) push(token.piece);
        continue;
      }
      // A word: this token and the word tokens right after it (no space between).
      const word: Piece[] = [token.piece];
      while (tokens[i + 1]?.kind === 'word') word.push(tokens[++i]!.piece);
      const wordWidth = word.reduce((sum, p) => sum + p.width, 0);
      const spaceWidth = spaces.reduce((sum, p) => sum + p.width, 0);
      // Wrap before the word, unless the line holds nothing but indentation yet.
      if (currentWidth + spaceWidth + wordWidth > width && current.some((p) => p.text.trim() !== '')) flush();
      if (current.length > 0) for (const s of spaces) push(s);
      spaces = [];
      sourceLineStart = false;
      if (currentWidth + wordWidth <= width) {
        for (const p of word) push(p);
        continue;
      }
      // Longer than what is left of the line: split between characters (never inside an emoji sequence).
      for (const p of word) {
        for (const char of characters(p.text)) {
          const w = p.font.widthOfTextAtSize(char, p.style.size);
          if (currentWidth + w > width && current.length > 0) flush();
          push({ ...p, text: char, width: w });
        }
      }
    }
    if (current.length > 0 || lines.length === 0) flush();
    return options.maxLines ? lines.slice(0, options.maxLines) : lines;
  }

  /** Width of a run on one line. */
  measure(run: Run): number {
    return faceRuns(run.text, primaryFace(run.style), { embedded: this.embedded }).reduce((sum, { face, text }) => sum + this.font(face).widthOfTextAtSize(text, run.style.size), 0);
  }

  /** The faces the document needs (text.ts neededFaces), embedded once and subset at save to the glyphs used. */
  private async embedFonts(faces: FontFace[]): Promise<void> {
    for (const face of faces) {
      this.fonts.set(face, await this.doc.embedFont(fontBytes(face), { subset: true, ...(FACE_FEATURES[face] ? { features: FACE_FEATURES[face] } : {}) }));
    }
  }

  private readonly embedded = (face: FontFace): boolean => this.fonts.has(face);

  private font(face: FontFace): PDFFont {
    const font = this.fonts.get(face);
    if (!font) throw new Error(`The font ${face} was not embedded: the text given to create() did not name it`);
    return font;
  }

  /** Embeds a PNG or JPEG (by its signature); undefined for anything else or unreadable bytes. */
  async embedImage(bytes: Uint8Array): Promise<PDFImage | undefined> {
    try {
      if (bytes[0] === 0x89 && bytes[1] === 0x50) return await this.doc.embedPng(bytes);
      if (bytes[0] === 0xff && bytes[1] === 0xd8) return await this.doc.embedJpg(bytes);
    } catch {
      // Corrupt image: its alt text stands in.
    }
    return undefined;
  }

  /** Draws an image scaled to fit the column (and a page), starting a new page when it does not fit. */
  image(image: PDFImage, maxHeight = 360): void {
    const scale = Math.min(1, this.width / image.width, maxHeight / image.height);
    const width = image.width * scale;
    const height = image.height * scale;
    this.ensure(height);
    const page = this.pages[this.pages.length - 1]!;
    page.drawImage(image, { x: this.left, y: this.y - height, width, height });
    this.y -= height;
  }

  private drawLine(page: PDFPage, line: Line, x: number, top: number): void {
    const baseline = top - line.baseline;
    if (this.marker) {
      const [marker] = this.layout([{ text: this.marker.text, style: this.marker.style }], 200);
      if (marker) this.drawPieces(page, marker.pieces, this.marker.x, baseline);
      this.marker = undefined;
    }
    this.drawPieces(page, line.pieces, x, baseline);
  }

  private drawPieces(page: PDFPage, pieces: Piece[], x: number, baseline: number): void {
    for (const piece of pieces) {
      const { style } = piece;
      // Spaces too: one between pieces of two fonts (between emoji) is otherwise a bare gap,
      // which PDF readers may not copy as a space.
      if (piece.text !== '') {
        page.drawText(piece.text, { x, y: baseline, size: style.size, font: piece.font, color: color(style.color) });
      }
      if (style.underline) {
        page.drawLine({ start: { x, y: baseline - 1.4 }, end: { x: x + piece.width, y: baseline - 1.4 }, thickness: 0.5, color: color(style.color) });
      }
      if (style.strike) {
        const y = baseline + style.size * 0.3;
        page.drawLine({ start: { x, y }, end: { x: x + piece.width, y }, thickness: 0.6, color: color(style.color) });
      }
      if (style.link) this.addLink(page, style.link, [x, baseline - style.size * 0.25, x + piece.width, baseline + style.size * 0.8]);
      x += piece.width;
    }
  }

  private addLink(page: PDFPage, url: string, rect: number[]): void {
    const annotation = this.doc.context.obj({
      Type: 'Annot',
      Subtype: 'Link',
      Rect: rect,
      Border: [0, 0, 0],
      A: { Type: 'Action', S: 'URI', URI: PDFString.of(url) },
    });
    page.node.addAnnot(this.doc.context.register(annotation));
  }
}

function oneSpace(piece: Piece, keep: boolean | undefined): Piece {
  if (keep || piece.text.length === 1) return piece;
  return { ...piece, text: ' ', width: piece.font.widthOfTextAtSize(' ', piece.style.size) };
}

/**
 * Adjacent pieces of the same font, style and bidi embedding level merge in reading order
 * (one right-to-left phrase is one piece, which fontkit shapes and lays out right to left);
 * then the pieces are put in display order by their levels (rule L2 of the Unicode
 * bidirectional algorithm).
 */
function makeLine(pieces: Piece[], baseSize: number): Line {
  const { leveled, rtl } = bidiLevels(pieces);
  const merged: { piece: Piece; level: number }[] = [];
  for (const next of leveled) {
    const last = merged[merged.length - 1];
    if (last && last.level === next.level && last.piece.font === next.piece.font && sameStyle(last.piece.style, next.piece.style)) {
      merged[merged.length - 1] = { level: last.level, piece: { ...last.piece, text: last.piece.text + next.piece.text, width: last.piece.width + next.piece.width } };
    } else {
      merged.push(next);
    }
  }
  const size = Math.max(0, ...merged.map((p) => p.piece.style.size)) || baseSize;
  const height = size * LINE_HEIGHT;
  const width = merged.reduce((sum, p) => sum + p.piece.width, 0);
  return { pieces: displayOrder(merged), width, height, baseline: (height - size) / 2 + size * 0.82, rtl };
}

/**
 * Each piece with its embedding level, cut where the level changes: a number inside
 * right-to-left text has an even level and must be its own piece, or fontkit would lay it
 * out right to left with the letters around it (2024 printed 4202).
 */
function bidiLevels(pieces: Piece[]): { leveled: { piece: Piece; level: number }[]; rtl: boolean } {
  const text = pieces.map((p) => p.text).join('');
  if (!/[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufeff]/u.test(text)) return { leveled: pieces.map((piece) => ({ piece, level: 0 })), rtl: false };
  const { levels, paragraphs } = bidi.getEmbeddingLevels(text);
  const leveled: { piece: Piece; level: number }[] = [];
  let offset = 0;
  for (const piece of pieces) {
    const starts = new Set<number>();
    let at = 0;
    for (const part of characters(piece.text)) {
      starts.add(at);
      at += part.length;
    }
    let start = 0;
    for (let i = 1; i <= piece.text.length; i++) {
      const level = levels[offset + start] ?? 0;
      // Cut where the level changes, never inside a surrogate pair or an emoji sequence.
      if (i < piece.text.length && (levels[offset + i] === level || !starts.has(i))) continue;
      const part = piece.text.slice(start, i);
      leveled.push({ level, piece: part === piece.text ? piece : { ...piece, text: part, width: piece.font.widthOfTextAtSize(part, piece.style.size) } });
      start = i;
    }
    offset += piece.text.length;
  }
  return { leveled, rtl: (paragraphs[0]?.level ?? 0) % 2 === 1 };
}

function displayOrder(leveled: { piece: Piece; level: number }[]): Piece[] {
  const highest = Math.max(0, ...leveled.map((l) => l.level));
  const lowestOdd = Math.min(...leveled.map((l) => l.level).filter((l) => l % 2 === 1), highest);
  for (let level = highest; level >= Math.max(1, lowestOdd); level--) {
    for (let i = 0; i < leveled.length; i++) {
      if (leveled[i]!.level < level) continue;
      let j = i;
      while (j + 1 < leveled.length && leveled[j + 1]!.level >= level) j++;
      leveled.splice(i, j - i + 1, ...leveled.slice(i, j + 1).reverse());
      i = j;
    }
  }
  return leveled.map((l) => l.piece);
}

function sameStyle(a: TextStyle, b: TextStyle): boolean {
  return a.size === b.size && a.underline === b.underline && a.strike === b.strike && a.link === b.link
    && (a.color ?? BLACK).every((v, i) => v === (b.color ?? BLACK)[i]);
}
