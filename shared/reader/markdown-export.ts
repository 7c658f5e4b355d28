import type { Nodes } from 'hast';
import { fromHtml } from 'hast-util-from-html';
import { sanitize } from 'hast-util-sanitize';
import { toHtml } from 'hast-util-to-html';
import type { StoredDocument } from '../content/types.ts';
import { READER_SCHEMA } from './schema.ts';
import { safeHref } from './urls.ts';

/**
 * A document as the reader's markdown exports (`<page>.md`, llms-full.txt) print it: links
 * and media whose target is not an allowed URL (shared/reader/schema.ts) are removed (a
 * link keeps its text), and raw HTML is kept as written only when the sanitizer would keep
 * it whole; otherwise its sanitized form is printed. Whatever renders these files later
 * gets no `javascript:` link or event handler from them.
 */

type Node = { object: string; type?: string; data?: Record<string, unknown>; nodes?: Node[] };

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

function exportNodes(nodes: Node[]): Node[] {
  return nodes.flatMap((node): Node[] => {
    if (node.object === 'text') return [node];
    if (unsafeTarget(node.data)) return node.type === 'link' ? exportNodes(node.nodes ?? []) : [];
    if (node.type === 'html') return [{ ...node, data: { ...node.data, html: exportedHtml(String(node.data?.html ?? '')) } }];
    return [node.nodes ? { ...node, nodes: exportNodes(node.nodes) } : node];
  });
}

export function exportableDocument(document: StoredDocument): StoredDocument {
  return { ...document, nodes: exportNodes(document.nodes as Node[]) as StoredDocument['nodes'] };
}
