import type { Nodes } from 'hast';
import { fromHtml } from 'hast-util-from-html';
import { sanitize } from 'hast-util-sanitize';
import { toHtml } from 'hast-util-to-html';
import type { StoredDocument } from '../content/types.ts';
import { h } from 'hastscript';
import { READER_SCHEMA } from './schema.ts';
import { safeHref } from './urls.ts';

/**
 * A document as the reader's markdown exports (`<page>.md`, llms-full.txt) print it: links
 * and media whose target is not an allowed URL (shared/reader/schema.ts) are removed (a
 * link keeps its text), and raw HTML is kept as written only when the sanitizer would keep
 * it whole; otherwise its sanitized form is printed. Whatever renders these files later
 * gets no `javascript:` link or event handler from them.
 */

type Node = { object: string; type?: string; data?: Record<string, unknown>; nodes?: Node[]; fragments?: Node[] };

const REF_TARGETS = ['url', 'page', 'file'] as const;

function unsafeTarget(data: Record<string, unknown> | undefined): boolean {
  const ref = data?.ref as Record<string, unknown> | undefined;
  const targets = [data?.url, ...REF_TARGETS.map((k) => ref?.[k])].filter((t) => typeof t === 'string');
  return targets.some((t) => safeHref(t) === undefined);
}

/**
 * Raw HTML as written when the sanitizer would keep all of it (a lone `<kbd>` or `</kbd>`
 * stays as written), else its sanitized HTML. "All of it": it parses without error (an
 * unterminated tag or comment could combine with the text around it), every start tag in
 * it became an element (the parser drops some out of context, such as `<body>` or `<td>`,
 * which another context would keep), and the sanitizer removed nothing.
 */
export function exportedHtml(html: string): string {
  let errors = 0;
  const parsed = fromHtml(html, { fragment: true, onerror: () => void errors++ });
  const asParsed = toHtml(parsed);
  const clean = toHtml(sanitize(parsed, READER_SCHEMA));
  const startTags = html.match(START_TAG)?.length ?? 0;
  return errors === 0 && startTags === elementCount(parsed) && clean === asParsed ? html : clean;
}

// What the HTML tokenizer reads as the start of a start tag; over-counting only means sanitizing.
const START_TAG = /<[A-Za-z]/g;

function elementCount(node: Nodes): number {
  const own = node.type === 'element' ? 1 : 0;
  return own + ('children' in node ? node.children.reduce((sum, child) => sum + elementCount(child), 0) : 0);
}

/**
 * The HTML attributes (hast properties) of `tagName` that READER_SCHEMA keeps. Blocks
 * printed as HTML tags (HTML tables and their cells) keep what the author wrote in
 * `data.attributes` for Git round trips; exports print only what the sanitizer would.
 */
function allowedProperties(tagName: string, properties: Record<string, unknown>): Record<string, unknown> {
  const kept = sanitize(h(tagName, properties as Record<string, string>), READER_SCHEMA);
  const props = kept.type === 'element' ? kept.properties : {};
  // The sanitizer leaves an empty class list where every class was dropped.
  return Object.fromEntries(Object.entries(props).filter(([, value]) => !(Array.isArray(value) && value.length === 0)));
}

/**
 * The tag each block with `data.attributes` is printed as (shared/content/markdown/html-blocks.ts);
 * cells are checked as `td`, whose allow-list is the narrower one of `td` and `th`.
 */
const PRINTED_TAG: Record<string, string> = { table: 'table', 'table-cell': 'td' };
/** Column widths are printed as `<col width>`: kept only if the sanitizer keeps that attribute. */
const COL_WIDTH_KEPT = Object.keys(allowedProperties('col', { width: '1' })).length > 0;

function exportedData(node: Node): Record<string, unknown> | undefined {
  const tag = node.type ? PRINTED_TAG[node.type] : undefined;
  const data = node.data;
  if (!tag || !data) return data;
  const out: Record<string, unknown> = { ...data };
  const attributes = data.attributes as Record<string, unknown> | undefined;
  if (attributes) {
    const kept = allowedProperties(tag, attributes);
    if (Object.keys(kept).length > 0) out.attributes = kept;
    else delete out.attributes;
  }
  if (!COL_WIDTH_KEPT) delete out.columnWidths;
  return out;
}

/** Every string in an integration block's props (nested objects and lists too) as exportedHtml prints it. */
function exportedProps(value: unknown): unknown {
  if (typeof value === 'string') return exportedHtml(value);
  if (Array.isArray(value)) return value.map(exportedProps);
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, exportedProps(v)]));
  return value;
}

function exportNodes(nodes: Node[]): Node[] {
  return nodes.flatMap((node): Node[] => {
    if (node.object === 'text') return [node];
    if (unsafeTarget(node.data)) return node.type === 'link' ? exportNodes(node.nodes ?? []) : [];
    if (node.type === 'html') return [{ ...node, data: { ...node.data, html: exportedHtml(String(node.data?.html ?? '')) } }];
    // Printed as written for Git (unknown tags, footnote marks, integration blocks' values):
    // a renderer of the export would read any HTML in them.
    if (node.type === 'markdown') return [{ ...node, data: { ...node.data, markdown: exportedHtml(String(node.data?.markdown ?? '')) } }];
    if (node.type === 'integration' && node.data?.props) return [{ ...node, data: { ...node.data, props: exportedProps(node.data.props) } }];
    const exported: Node = node.data ? { ...node, data: exportedData(node) } : { ...node };
    if (exported.nodes) exported.nodes = exportNodes(exported.nodes);
    // An expandable's title and body, a caption: fragments print like nodes.
    if (exported.fragments) exported.fragments = exportNodes(exported.fragments);
    return [exported];
  });
}

export function exportableDocument(document: StoredDocument): StoredDocument {
  return { ...document, nodes: exportNodes(document.nodes as Node[]) as StoredDocument['nodes'] };
}
