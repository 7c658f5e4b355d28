import type { ElementContent } from 'hast';
import { h } from 'hastscript';
import type { ExtendedRenderHelpers } from './blocks-extended.ts';
import type { ReaderNode } from './document.ts';

/**
 * Table blocks (docs/content-format.md): GFM tables (inline cells, `data.align`) and HTML
 * tables (`data.format: "html"`: cells holding blocks, `data.header: false`, header cells'
 * attributes such as `data-hidden`). A table with `data.view.type: "cards"` is a grid of
 * cards, one per row, as GitBook shows it: the column marked `data-card-cover` gives the
 * cover image, `data-card-target` the link the whole card follows; the other visible
 * columns are the title (the first) and the description. Content-ref blocks share the
 * cards' look (assets/style.ts).
 */

const ALIGNMENTS = new Set(['left', 'right', 'center']);

type Attributes = Record<string, unknown>;
const attributesOf = (cell: ReaderNode | undefined): Attributes => (cell?.data?.attributes as Attributes | undefined) ?? {};
/** A flag attribute as hast keeps it: present (`data-hidden` is `''`) unless false or missing. */
const flag = (attributes: Attributes, name: string) => attributes[name] !== undefined && attributes[name] !== null && attributes[name] !== false;

function textOf(node: ReaderNode): string {
  if (node.object === 'text') return (node.leaves ?? []).map((l) => l.text).join('');
  return (node.nodes ?? []).map(textOf).join(' ');
}

/** The first content ref inside a cell (a link, an image, a content-ref block). */
function firstRef(node: ReaderNode | undefined): unknown {
  if (!node) return undefined;
  const ref = node.data?.ref;
  if (ref && typeof ref === 'object') return ref;
  for (const child of node.nodes ?? []) {
    const found = firstRef(child);
    if (found) return found;
  }
  return undefined;
}

/** A cell's content: its blocks, or its inlines (GFM cells, and a cell of one paragraph, as GitBook writes it). */
function cellContent(cell: ReaderNode | undefined, { blocks, inlines }: ExtendedRenderHelpers): ElementContent[] {
  const nodes = cell?.nodes ?? [];
  if (nodes.length === 1 && nodes[0]!.type === 'paragraph') return inlines(nodes[0]!.nodes);
  return nodes.some((n) => n.object === 'block') ? blocks(nodes) : inlines(nodes);
}

function columns(node: ReaderNode) {
  const rows = node.nodes ?? [];
  const headed = node.data?.header !== false && rows.length > 0;
  const head = headed ? rows[0] : undefined;
  const attributes = (head?.nodes ?? []).map(attributesOf);
  return { head, body: headed ? rows.slice(1) : rows, attributes, hidden: (i: number) => flag(attributes[i] ?? {}, 'dataHidden') };
}

function cards(node: ReaderNode, helpers: ExtendedRenderHelpers): ElementContent[] {
  const { body, attributes, hidden } = columns(node);
  const target = attributes.findIndex((a) => flag(a, 'dataCardTarget'));
  const cover = attributes.findIndex((a) => flag(a, 'dataCardCover'));
  const shown = (i: number) => !hidden(i) && i !== target && i !== cover;
  const items = body.map((row) => {
    const cells = row.nodes ?? [];
    const targetRef = target >= 0 ? firstRef(cells[target]) : undefined;
    const href = targetRef ? helpers.href(targetRef) : undefined;
    const coverRef = cover >= 0 ? firstRef(cells[cover]) : undefined;
    const [title, ...rest] = cells.filter((_, i) => shown(i));
    // The title is the card's link, stretched over the card by the stylesheet (no link inside a link).
    const heading = href
      ? h('p.card-title', h('a.card-link', { href }, (title ? textOf(title).replace(/\s+/g, ' ').trim() : '') || href))
      : h('div.card-title', cellContent(title, helpers));
    return h('li.card', [
      ...(coverRef ? [h('div.card-cover', helpers.image({ ref: coverRef, alt: '' }))] : []),
      heading,
      ...rest.map((cell) => h('div', cellContent(cell, helpers))),
    ]);
  });
  const large = (node.data?.view as { cardSize?: string } | undefined)?.cardSize === 'large';
  return [h('ul', { className: ['cards', ...(large ? ['cards-large'] : [])] }, items)];
}

function table(node: ReaderNode, helpers: ExtendedRenderHelpers): ElementContent[] {
  const align = Array.isArray(node.data?.align) ? (node.data.align as unknown[]) : [];
  const { head, body, hidden } = columns(node);
  const row = (r: ReaderNode, tag: 'th' | 'td') => h('tr', (r.nodes ?? []).flatMap((cell, i) => {
    if (hidden(i)) return [];
    const attributes = attributesOf(cell);
    const span = (name: string) => (typeof attributes[name] === 'number' ? attributes[name] : undefined);
    const className = ALIGNMENTS.has(String(align[i])) ? [`align-${String(align[i])}`] : undefined;
    return [h(tag, { className, colSpan: span('colSpan'), rowSpan: span('rowSpan') }, cellContent(cell, helpers))];
  }));
  return [h('div.table', h('table', [...(head ? [h('thead', row(head, 'th'))] : []), h('tbody', body.map((r) => row(r, 'td')))]))];
}

export function renderTable(node: ReaderNode, helpers: ExtendedRenderHelpers): ElementContent[] {
  const view = node.data?.view as { type?: string } | undefined;
  return view?.type === 'cards' ? cards(node, helpers) : table(node, helpers);
}
