/**
 * HTML blocks that are document blocks, as GitBook writes them:
 *  - figures `<figure><img src alt><figcaption><p>Caption</p></figcaption></figure>` and
 *    pictures with a dark variant (`<picture><source srcset media="(prefers-color-scheme: dark)"><img></picture>`):
 *    image blocks (ref, refDark, alt, caption fragment with rich text);
 *  - tables `<table>` (rich cells, card views `data-view="cards"`): table blocks whose cells
 *    hold blocks; the table's and cells' other attributes are kept in `data.attributes`.
 * Anything else stays an `html` block.
 */
import type { Element, ElementContent } from 'hast';
import type { RootContent } from 'mdast';
import { h } from 'hastscript';
import { toHast } from 'mdast-util-to-hast';
import type { Root as MdastRoot } from 'mdast';
import { childElements, elementAttributes, hastToMdast, parseHtml, toHtml } from './html-content.ts';
import { captionText } from './captions.ts';
import { textNode } from './inline.ts';
import { fileRefFromSource, targetOf } from './refs.ts';
import { block, element, isElement, type DocumentNode, type ElementNode, type FragmentNode } from './types.ts';

type FromMdast = (nodes: RootContent[]) => ElementNode[];
type ToMdast = (nodes: DocumentNode[]) => RootContent[];

const DARK = '(prefers-color-scheme: dark)';
/** `data-hidden` rather than `data-hidden=""`, as GitBook writes flags. */
const HTML_OPTIONS = { allowDangerousHtml: true, collapseEmptyAttributes: true };
const isBlank = (node: ElementContent | { type: string; value?: string }) =>
  (node.type === 'text' && !(node.value ?? '').trim()) || node.type === 'comment';

/** The top-level elements of an HTML block when they all have one of `tags` (whitespace aside). */
function topElements(html: string, tags: string[]): Element[] | undefined {
  const root = parseHtml(html);
  const content = root.children.filter((c) => !isBlank(c as ElementContent));
  if (content.length === 0 || !content.every((c) => c.type === 'element' && tags.includes(c.tagName))) return undefined;
  return content as Element[];
}

// ---- images ----

function str(value: unknown): string {
  return Array.isArray(value) ? value.join(' ') : typeof value === 'string' || typeof value === 'number' ? String(value) : '';
}

/** An image block from an `<img>` or `<picture>` and an optional caption. */
function imageFromElement(el: Element, caption: ElementNode[], convertCaption: boolean): ElementNode | undefined {
  let img: Element | undefined = el.tagName === 'img' ? el : undefined;
  let dark: string | undefined;
  if (el.tagName === 'picture') {
    img = childElements(el, 'img')[0];
    const source = childElements(el, 'source').find((s) => str(s.properties?.media) === DARK);
    dark = source ? str(source.properties?.srcSet) : undefined;
  }
  if (!img) return undefined;
  const data: Record<string, unknown> = { ref: fileRefFromSource(str(img.properties?.src)) };
  if (dark) data.refDark = fileRefFromSource(dark);
  const alt = str(img.properties?.alt);
  if (alt) data.alt = alt;
  // GitBook's resized images: `<img ... width="375">` (a Length of the public image block).
  for (const key of ['width', 'height'] as const) {
    const length = lengthOf(img.properties?.[key]);
    if (length !== undefined) data[key] = length;
  }
  // An `<img>` saying more than an image block holds (a class, a style, `width="auto"`) is no
  // image block: its HTML stays as written (an `html` block, which reader exports sanitize).
  const said = ['src', 'alt', ...(['width', 'height'] as const).filter((key) => data[key] !== undefined)];
  if (Object.keys(elementAttributes(img, said)).length > 0) return undefined;
  const node = element('block', 'image', [], data);
  node.fragments = convertCaption && caption.length > 0 ? [{ object: 'fragment', key: '', fragment: 'caption', nodes: caption }] : [];
  node.isVoid = true;
  return node;
}

/** A width or height as the public model's Length: pixels as a number, a percentage as `{value, unit: '%'}`. */
function lengthOf(value: unknown): number | { value: number; unit: '%' } | undefined {
  const text = str(value).trim();
  if (/^\d+(?:\.\d+)?$/.test(text)) return Number(text);
  const percent = /^(\d+(?:\.\d+)?)%$/.exec(text);
  return percent ? { value: Number(percent[1]), unit: '%' } : undefined;
}

function lengthText(value: unknown): string | undefined {
  if (typeof value === 'number') return String(value);
  if (value && typeof value === 'object' && typeof (value as { value?: unknown }).value === 'number') {
    const { value: n, unit } = value as { value: number; unit?: string };
    return unit === '%' ? `${n}%` : String(n);
  }
  return undefined;
}

/** Image blocks of an HTML block made only of figures and pictures, or undefined. */
export function imagesFromHtml(html: string, convert: FromMdast): ElementNode[] | undefined {
  const elements = topElements(html, ['figure', 'picture']);
  if (!elements) return undefined;
  const images: ElementNode[] = [];
  for (const el of elements) {
    if (el.tagName === 'picture') {
      const image = imageFromElement(el, [], false);
      if (!image) return undefined;
      images.push(image);
      continue;
    }
    const media = childElements(el, 'img', 'picture');
    const others = el.children.filter((c) => !isBlank(c) && !(c.type === 'element' && ['img', 'picture', 'figcaption'].includes(c.tagName)));
    if (media.length !== 1 || others.length > 0) return undefined;
    const figcaption = childElements(el, 'figcaption')[0];
    const caption = figcaption ? convert(hastToMdast(figcaption.children, html)) : [];
    const image = imageFromElement(media[0]!, caption, true);
    if (!image) return undefined;
    images.push(image);
  }
  return images;
}

/** Blocks (or, `phrasing`, inline content, whose spaces between elements are text) as hast. */
function mdastToHast(children: RootContent[], phrasing = false): ElementContent[] {
  // Inline content goes through a paragraph: at the root, mdast-util-to-hast puts newlines between nodes.
  const root = phrasing ? [{ type: 'paragraph', children } as RootContent] : children;
  const hast = toHast({ type: 'root', children: root } as MdastRoot, { allowDangerousHtml: true }) as { children: ElementContent[] };
  if (phrasing) return hast.children.flatMap((c) => (c.type === 'element' ? c.children : []));
  return hast.children.filter((c) => !isBlank(c));
}

/** Image blocks as figures (captions as HTML, dark variants as `<picture>`). */
export function imagesToHtml(images: ElementNode[], toMdast: ToMdast): string {
  return images
    .map((image) => {
      const data = image.data ?? {};
      const size = Object.fromEntries((['width', 'height'] as const).map((key) => [key, lengthText(data[key])]).filter(([, v]) => v !== undefined));
      const img = h('img', { src: targetOf(data.ref), alt: typeof data.alt === 'string' ? data.alt : '', ...size });
      const media = data.refDark ? h('picture', [h('source', { srcSet: targetOf(data.refDark), media: DARK }), img]) : img;
      // The caption fragment, or the plain `data.caption` of documents stored before fragments.
      const fragment = (image.fragments ?? []).find((f) => f.fragment === 'caption');
      const legacy = captionText(image);
      const caption = fragment?.nodes ?? (legacy ? [block('paragraph', [textNode(legacy)], {})] : []);
      const captionHast = mdastToHast(toMdast(caption));
      return toHtml(h('figure', [media, h('figcaption', captionHast)]), { allowDangerousHtml: true });
    })
    .join('\n');
}

// ---- tables ----

const CELL_SKIP: string[] = [];

/** A table block from an HTML block holding one `<table>`, or undefined. */
export function tableFromHtml(html: string, convert: FromMdast): ElementNode | undefined {
  const [table, ...more] = topElements(html, ['table']) ?? [];
  if (!table || more.length > 0) return undefined;
  const data: Record<string, unknown> = {};
  const rows: ElementNode[] = [];
  let header = false;
  for (const section of childElements(table)) {
    if (section.tagName === 'colgroup') {
      data.columnWidths = childElements(section, 'col').map((col) => str(col.properties?.width) || null);
      continue;
    }
    const trs = section.tagName === 'tr' ? [section] : childElements(section, 'tr');
    if (section.tagName === 'thead' && rows.length === 0) header = true;
    for (const tr of trs) {
      const cells = childElements(tr, 'td', 'th').map((cell) => {
        const attributes = elementAttributes(cell, CELL_SKIP);
        return block('table-cell', convert(hastToMdast(cell.children, html)), Object.keys(attributes).length > 0 ? { attributes } : {});
      });
      rows.push(block('table-row', cells, {}));
    }
  }
  const attributes = elementAttributes(table, ['dataView', 'dataCardSize']);
  if (table.properties?.dataView) {
    data.view = { type: str(table.properties.dataView), ...(table.properties.dataCardSize ? { cardSize: str(table.properties.dataCardSize) } : {}) };
  }
  if (!header) data.header = false;
  if (Object.keys(attributes).length > 0) data.attributes = attributes;
  return block('table', rows, { format: 'html', ...data });
}

/** Whether a table needs the HTML form: a view, block content in a cell or anything markdown tables cannot say. */
export function needsHtmlTable(node: ElementNode): boolean {
  const data = node.data ?? {};
  if (data.format === 'html' || data.view || data.attributes || data.header === false || data.columnWidths) return true;
  return node.nodes.filter(isElement).some((row) => row.nodes.filter(isElement).some((cell) => cell.nodes.some((c) => isElement(c) && c.object === 'block')));
}

/** A table block as GitBook's HTML table (cells' inline content goes in a paragraph). */
export function tableToHtml(node: ElementNode, toMdast: ToMdast): string {
  const data = node.data ?? {};
  const view = data.view as { type?: string; cardSize?: string } | undefined;
  const props: Record<string, unknown> = { ...(data.attributes as Record<string, unknown> | undefined) };
  if (view?.type) props.dataView = view.type;
  if (view?.cardSize) props.dataCardSize = view.cardSize;
  const rows = node.nodes.filter(isElement);
  const header = data.header !== false && rows.length > 0;
  const cell = (c: ElementNode, tag: 'th' | 'td') => {
    // One paragraph is written as its text, as GitBook does (it reads back as one paragraph).
    const blocks = c.nodes.filter((n) => isElement(n) && n.object === 'block') as ElementNode[];
    const inline = blocks.length === 0 ? c.nodes : blocks.length === 1 && c.nodes.length === 1 && blocks[0]!.type === 'paragraph' ? blocks[0]!.nodes : undefined;
    const content = inline ? ((toMdast([block('paragraph', inline, {})])[0] as { children?: RootContent[] } | undefined)?.children ?? []) : toMdast(c.nodes);
    return h(tag, (c.data?.attributes as Record<string, string>) ?? {}, mdastToHast(content, !!inline));
  };
  const tr = (row: ElementNode, tag: 'th' | 'td') => h('tr', row.nodes.filter(isElement).map((c) => cell(c, tag)));
  const children: Element[] = [];
  if (Array.isArray(data.columnWidths)) children.push(h('colgroup', data.columnWidths.map((w) => h('col', w ? { width: String(w) } : {}))));
  if (header) children.push(h('thead', tr(rows[0]!, 'th')));
  children.push(h('tbody', rows.slice(header ? 1 : 0).map((r) => tr(r, 'td'))));
  return toHtml(h('table', props as Record<string, string>, children), HTML_OPTIONS);
}

export type { FragmentNode };
