import type { PDFImage } from '@cantoo/pdf-lib';
import { BLACK, GREY, LINK, type Color, type PdfWriter, type Run, type TextStyle } from './writer.ts';
import { safeLinkTarget } from '../../reader/urls.ts';
import { captionText } from '../markdown/captions.ts';

/**
 * A page document (spec 2.1 item 6: blocks, inlines, text leaves with marks) drawn with the
 * writer. Every block type the markdown parser produces has a rendering; anything else
 * (documents posted as JSON may hold any type) falls back to its child blocks or its text,
 * so no content silently disappears. Images that are files of the revision (PNG, JPEG) are
 * embedded; others (external URLs, other formats) are represented by their alt text.
 */

interface Node {
  object?: string;
  type?: string;
  data?: Record<string, unknown>;
  nodes?: Node[];
  leaves?: { text?: string; marks?: { type?: string }[] }[];
  text?: string;
}

/** What the renderer needs from the revision to name link targets. */
export interface RenderContext {
  pageTitle(pageId: string): string | undefined;
  fileName(fileId: string): string | undefined;
  /** The embedded image of a file of the revision, when it is a PNG or JPEG. */
  image?(fileId: string): PDFImage | undefined;
}

export const BODY_SIZE = 10.5;
const CODE_SIZE = 8.5;
const body: TextStyle = { family: 'sans', size: BODY_SIZE, color: BLACK };
const HEADINGS: Record<string, { size: number; before: number }> = {
  'heading-1': { size: 17, before: 14 },
  'heading-2': { size: 14, before: 12 },
  'heading-3': { size: 12, before: 10 },
  'heading-4': { size: 11.5, before: 8 },
  'heading-5': { size: 11, before: 8 },
  'heading-6': { size: 10.5, before: 6 },
};
const HINT_COLORS: Record<string, { bar: Color; fill: Color }> = {
  info: { bar: [0.2, 0.45, 0.85], fill: [0.93, 0.96, 1] },
  success: { bar: [0.15, 0.6, 0.35], fill: [0.92, 0.98, 0.94] },
  warning: { bar: [0.9, 0.6, 0.1], fill: [1, 0.97, 0.9] },
  danger: { bar: [0.85, 0.2, 0.2], fill: [1, 0.93, 0.93] },
};
const PARAGRAPH_AFTER = 6;
const LIST_INDENT = 16;

export function renderBlocks(w: PdfWriter, nodes: Node[] | undefined, ctx: RenderContext): void {
  for (const node of nodes ?? []) renderBlock(w, node, ctx);
}

function renderBlock(w: PdfWriter, node: Node, ctx: RenderContext): void {
  const data = node.data ?? {};
  switch (node.type) {
    case 'paragraph':
      w.paragraph(inlineRuns(node.nodes, body, ctx), { after: PARAGRAPH_AFTER });
      return;
    case 'heading-1':
    case 'heading-2':
    case 'heading-3':
    case 'heading-4':
    case 'heading-5':
    case 'heading-6': {
      const { size, before } = HEADINGS[node.type]!;
      w.paragraph(inlineRuns(node.nodes, { ...body, size, bold: true }, ctx), { before, after: 4, keepWithNext: BODY_SIZE * 3 });
      return;
    }
    case 'list-unordered':
    case 'list-ordered':
    case 'list-tasks':
      renderList(w, node, ctx);
      return;
    case 'code':
      renderCode(w, node);
      return;
    case 'hint': {
      const colors = HINT_COLORS[String(data.style)] ?? HINT_COLORS.info!;
      w.gap(2);
      w.box({ fill: colors.fill, bar: colors.bar, padX: 8, padY: 6 }, () => renderBlocks(w, node.nodes, ctx));
      w.gap(PARAGRAPH_AFTER + 2);
      return;
    }
    case 'blockquote':
      w.box({ bar: [0.78, 0.8, 0.84], padX: 8, padY: 2 }, () => renderBlocks(w, node.nodes, ctx));
      w.gap(PARAGRAPH_AFTER);
      return;
    case 'table': {
      const rows = children(node).map((row) => children(row).map((cell) => inlineRuns(cell.nodes, { ...body, size: 9.5 }, ctx)));
      if (rows[0]) rows[0] = rows[0].map((cell) => cell.map((run) => ({ ...run, style: { ...run.style, bold: true } })));
      w.gap(2);
      w.table(rows, { header: true });
      w.gap(PARAGRAPH_AFTER + 2);
      return;
    }
    case 'images':
      for (const image of children(node)) renderImage(w, image, ctx);
      return;
    case 'image':
      renderImage(w, node, ctx);
      return;
    case 'divider':
      w.rule();
      return;
    case 'tabs':
    case 'stepper':
      for (const [index, item] of children(node).entries()) {
        const title = node.type === 'tabs' ? String(item.data?.title ?? '') || `Tab ${index + 1}` : `Step ${index + 1}`;
        w.paragraph([{ text: title, style: { ...body, bold: true } }], { before: 2, after: 3, keepWithNext: BODY_SIZE * 2 });
        w.indent(10, () => renderBlocks(w, item.nodes, ctx));
      }
      return;
    case 'content-ref':
      w.paragraph([{ text: 'See: ', style: { ...body, bold: true } }, linkRun(refLabel(data.ref, ctx), data.ref, body)], { after: PARAGRAPH_AFTER });
      return;
    case 'embed':
      w.paragraph([{ text: 'Embedded: ', style: { ...body, bold: true } }, linkRun(String(data.url ?? ''), { kind: 'url', url: data.url }, body),
        ...captionRuns(data)], { after: PARAGRAPH_AFTER });
      return;
    case 'file':
      w.paragraph([{ text: 'File: ', style: { ...body, bold: true } }, { text: refLabel(data.ref, ctx), style: body }, ...captionRuns(data)],
        { after: PARAGRAPH_AFTER });
      return;
    case 'reusable-content':
      w.paragraph([{ text: `[Reusable content${data.path ? `: ${String(data.path)}` : ''}]`, style: { ...body, italic: true, color: GREY } }],
        { after: PARAGRAPH_AFTER });
      return;
    case 'html':
      w.paragraph([{ text: htmlText(String(data.html ?? '')), style: body }], { after: PARAGRAPH_AFTER });
      return;
    case 'markdown':
      w.paragraph([{ text: String(data.markdown ?? ''), style: { family: 'mono', size: CODE_SIZE, color: GREY } }], { after: PARAGRAPH_AFTER });
      return;
    case 'math':
      // No TeX typesetting here: the formula as written, so it is not lost.
      w.paragraph([{ text: String(data.formula ?? ''), style: { family: 'mono', size: BODY_SIZE, color: BLACK } }], { before: 2, after: PARAGRAPH_AFTER });
      return;
    case 'integration': {
      // The integration's block (it draws itself in the app) and the values it was given.
      w.paragraph([{ text: `[${[data.integration, data.block].filter(Boolean).join(': ')}]`, style: { ...body, italic: true, color: GREY } }],
        { after: 3, keepWithNext: BODY_SIZE * 2 });
      const props = data.props && typeof data.props === 'object' ? Object.entries(data.props as Record<string, unknown>) : [];
      for (const [name, value] of props) {
        w.paragraph([{ text: `${name}: ${typeof value === 'string' ? value : JSON.stringify(value)}`, style: { family: 'mono', size: CODE_SIZE, color: GREY } }], { after: 3 });
      }
      w.gap(PARAGRAPH_AFTER - 3);
      return;
    }
    case 'expandable': {
      // Printed open: the title in bold, the body below it.
      const fragment = (name: string) => ((node as Node & { fragments?: { fragment?: string; nodes?: Node[] }[] }).fragments ?? []).find((f) => f.fragment === name)?.nodes ?? [];
      w.paragraph(inlineRuns(fragment('expandable-title')[0]?.nodes, { ...body, bold: true }, ctx), { before: 2, after: 3, keepWithNext: BODY_SIZE * 2 });
      w.indent(10, () => renderBlocks(w, fragment('expandable-body'), ctx));
      return;
    }
    case 'swagger':
    case 'openapi-operation':
    case 'openapi-schemas':
    case 'openapi-webhook':
    case 'update':
    case 'prompt':
    case 'swagger-parameter':
    case 'swagger-response':
    case 'if': {
      // A label line from the block's data (method and path, date, condition, ...), then its content.
      const label = blockLabel(node.type!, data);
      if (label) w.paragraph([{ text: label, style: { ...body, bold: true } }], { before: 2, after: 3, keepWithNext: BODY_SIZE * 2 });
      renderBlocks(w, children(node).filter((n) => n.object === 'block'), ctx);
      return;
    }
    default: {
      const blocks = children(node).filter((n) => n.object === 'block');
      if (blocks.length > 0) renderBlocks(w, blocks, ctx);
      else w.paragraph(inlineRuns(node.nodes, body, ctx), { after: PARAGRAPH_AFTER });
    }
  }
}

function renderList(w: PdfWriter, node: Node, ctx: RenderContext): void {
  const start = typeof node.data?.start === 'number' ? node.data.start : 1;
  for (const [index, item] of children(node).entries()) {
    const marker = node.type === 'list-ordered'
      ? `${start + index}.`
      : node.type === 'list-tasks' ? (item.data?.checked ? '[x]' : '[ ]') : '\u2022';
    const offset = node.type === 'list-unordered' ? 10 : LIST_INDENT + (node.type === 'list-tasks' ? 2 : 0);
    w.indent(LIST_INDENT + (node.type === 'list-tasks' ? 4 : 0), () => {
      w.setMarker(marker, body, offset);
      // Paragraphs inside list items sit closer together than in the body.
      for (const child of item.nodes ?? []) {
        if (child.type === 'paragraph') w.paragraph(inlineRuns(child.nodes, body, ctx), { after: 2 });
        else renderBlock(w, child, ctx);
      }
    });
  }
  w.gap(PARAGRAPH_AFTER - 2);
}

function renderCode(w: PdfWriter, node: Node): void {
  const title = typeof node.data?.title === 'string' ? node.data.title : undefined;
  const lines = children(node).map((line) => plainText(line.nodes));
  const code: TextStyle = { family: 'mono', size: CODE_SIZE, color: BLACK };
  w.gap(2);
  w.box({ fill: [0.95, 0.95, 0.96], border: [0.85, 0.86, 0.88], padX: 8, padY: 6 }, () => {
    if (title) w.paragraph([{ text: title, style: { family: 'sans', size: 8.5, bold: true, color: GREY } }], { after: 3 });
    for (const line of lines) w.placeLines(w.layout([{ text: line, style: code }], w.width, { preserveSpaces: true }));
  });
  w.gap(PARAGRAPH_AFTER + 2);
}

function renderImage(w: PdfWriter, node: Node, ctx: RenderContext): void {
  const alt = typeof node.data?.alt === 'string' ? node.data.alt.trim() : '';
  const caption = captionText(node).trim();
  const fileId = imageFileId(node);
  const embedded = fileId ? ctx.image?.(fileId) : undefined;
  if (embedded) {
    w.gap(2);
    w.image(embedded);
    w.gap(4);
    if (caption) w.paragraph([{ text: caption, style: { ...body, size: 9, italic: true, color: GREY } }], { after: PARAGRAPH_AFTER });
    else w.gap(PARAGRAPH_AFTER);
    return;
  }
  const text = `[Image${alt ? `: ${alt}` : ''}]${caption ? ` ${caption}` : ''}`;
  w.paragraph([{ text, style: { ...body, italic: true, color: GREY } }], { after: PARAGRAPH_AFTER });
}

/** Text leaves with their marks as fonts; links in blue (clickable for URLs). */
export function inlineRuns(nodes: Node[] | undefined, base: TextStyle, ctx: RenderContext): Run[] {
  const runs: Run[] = [];
  for (const node of nodes ?? []) {
    if (node.object === 'text' || node.leaves) {
      for (const leaf of node.leaves ?? [{ text: node.text ?? '' }]) {
        runs.push({ text: leaf.text ?? '', style: markStyle(base, (leaf.marks ?? []).map((m) => m.type ?? '')) });
      }
      continue;
    }
    const data = node.data ?? {};
    switch (node.type) {
      case 'link': {
        const url = linkUrl(data.ref);
        const style: TextStyle = { ...base, color: LINK, underline: true, ...(url ? { link: url } : {}) };
        runs.push(...inlineRuns(node.nodes, style, ctx));
        break;
      }
      case 'inline-image': {
        const alt = typeof data.alt === 'string' && data.alt ? data.alt : 'image';
        runs.push({ text: `[${alt}]`, style: { ...base, italic: true, color: GREY } });
        break;
      }
      case 'html':
        runs.push({ text: htmlText(String(data.html ?? '')), style: base });
        break;
      case 'markdown':
        runs.push({ text: String(data.markdown ?? ''), style: base });
        break;
      case 'emoji':
        // No emoji font is embedded: nothing to draw.
        break;
      case 'inline-math':
        runs.push({ text: String(data.formula ?? ''), style: { ...base, family: 'mono' } });
        break;
      default:
        if (node.nodes?.length) runs.push(...inlineRuns(node.nodes, base, ctx));
        else if (typeof data.text === 'string') runs.push({ text: data.text, style: base });
    }
  }
  return runs;
}

function markStyle(base: TextStyle, marks: string[]): TextStyle {
  const style: TextStyle = { ...base };
  if (marks.includes('bold')) style.bold = true;
  if (marks.includes('italic')) style.italic = true;
  if (marks.includes('strikethrough')) style.strike = true;
  if (marks.includes('code')) {
    style.family = 'mono';
    style.size = base.size * 0.92;
    if (!base.link) style.color = [0.55, 0.12, 0.2];
  }
  return style;
}

function linkRun(text: string, ref: unknown, base: TextStyle): Run {
  const url = linkUrl(ref);
  return { text, style: { ...base, color: LINK, underline: true, ...(url ? { link: url } : {}) } };
}

/** External targets under the reader's URL allow-list, serialized by the WHATWG parser (ASCII, what a PDF URI action holds). */
function linkUrl(ref: unknown): string | undefined {
  const r = ref as { kind?: unknown; url?: unknown } | undefined;
  return r?.kind === 'url' ? safeLinkTarget(r.url) : undefined;
}

/** What a reference points at, in words: a page's title, a file's name, a URL. */
function refLabel(ref: unknown, ctx: RenderContext): string {
  const r = (ref ?? {}) as Record<string, unknown>;
  if (r.kind === 'page' && typeof r.page === 'string') return ctx.pageTitle(r.page) ?? r.page;
  if (r.kind === 'file' && typeof r.file === 'string') return ctx.fileName(r.file) ?? r.file;
  if (r.kind === 'anchor') return `${typeof r.page === 'string' ? `${ctx.pageTitle(r.page) ?? r.page} ` : ''}#${String(r.anchor ?? '')}`;
  if (typeof r.url === 'string') return r.url;
  return '';
}

function captionRuns(data: Record<string, unknown>): Run[] {
  return typeof data.caption === 'string' && data.caption ? [{ text: ` \u2013 ${data.caption}`, style: { ...body, italic: true, color: GREY } }] : [];
}

function blockLabel(type: string, data: Record<string, unknown>): string {
  const s = (key: string) => (typeof data[key] === 'string' ? (data[key] as string) : '');
  const ref = data.ref as { spec?: string } | undefined;
  switch (type) {
    case 'update': return s('date');
    case 'prompt': return s('description');
    case 'if': return `Shown when: ${s('expression')}`;
    case 'swagger-parameter': return [s('name'), s('in'), s('type')].filter(Boolean).join(' \u00b7 ');
    case 'swagger-response': return [s('status'), s('description')].filter(Boolean).join(' \u2013 ');
    default: return [s('method').toUpperCase(), s('path'), s('summary') || ref?.spec || ''].filter(Boolean).join(' ');
  }
}

function children(node: Node): Node[] {
  return (node.nodes ?? []).filter((n) => n && typeof n === 'object');
}

function plainText(nodes: Node[] | undefined): string {
  return (nodes ?? []).map((n) => (n.leaves ? n.leaves.map((l) => l.text ?? '').join('') : n.text ?? plainText(n.nodes))).join('');
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'", nbsp: '\u00a0' };

/** The text of an HTML fragment: tags dropped, block ends as spaces, common entities decoded. */
function htmlText(html: string): string {
  return html
    .replace(/<(script|style)[\s\S]*?<\/\1>/gi, '')
    .replace(/<br\s*\/?>|<\/(p|div|li|tr|h[1-6])>/gi, ' ')
    .replace(/<[^>]*>/g, '')
    .replace(/&(amp|lt|gt|quot|#39|nbsp);/g, (_m, e: string) => ENTITIES[e]!)
    .replace(/\s+/g, ' ')
    .trim();
}

/** The file id an image block points at, when it is a file of the revision. */
export function imageFileId(node: Node): string | undefined {
  const ref = node.data?.ref as { kind?: unknown; file?: unknown } | undefined;
  return ref?.kind === 'file' && typeof ref.file === 'string' ? ref.file : undefined;
}

/** Every file id of an image block in the documents. */
export function imageFileIds(nodes: Node[] | undefined, out = new Set<string>()): Set<string> {
  for (const node of nodes ?? []) {
    if (node.type === 'image') {
      const id = imageFileId(node);
      if (id) out.add(id);
    }
    imageFileIds(node.nodes, out);
  }
  return out;
}
