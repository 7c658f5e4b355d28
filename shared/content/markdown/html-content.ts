/**
 * HTML that holds document content (GitBook writes rich table cells, figure captions and
 * expandable titles as HTML) <-> document blocks, through maintained libraries: HTML is
 * parsed by hast-util-from-html and read as mdast by hast-util-to-mdast, then converted like
 * any markdown; going back, blocks become mdast, then hast (mdast-util-to-hast), then HTML.
 */
import type { Element, ElementContent, Root as HastRoot } from 'hast';
import { fromHtml } from 'hast-util-from-html';
import { toHtml } from 'hast-util-to-html';
import { defaultHandlers, toMdast, type Handle } from 'hast-util-to-mdast';
import { phrasing } from 'mdast-util-phrasing';
import type { InlineCode, PhrasingContent, Root as MdastRoot, RootContent } from 'mdast';
import { visit } from 'unist-util-visit';
import { toHast } from 'mdast-util-to-hast';

/** Parses an HTML fragment (entities decoded, as a browser would). */
export function parseHtml(html: string): HastRoot {
  return fromHtml(html, { fragment: true });
}

/** Child elements of a hast node with the given tag names. */
export function childElements(node: { children: unknown[] }, ...tags: string[]): Element[] {
  return (node.children as ElementContent[]).filter((c): c is Element => c.type === 'element' && (tags.length === 0 || tags.includes(c.tagName)));
}

/** GitBook writes a code language as `<pre class="language-x"><code class="lang-x">`: read it as `language-x`. */
function codeLanguages(nodes: ElementContent[]): void {
  for (const node of nodes) {
    if (node.type !== 'element') continue;
    const classes = Array.isArray(node.properties?.className) ? (node.properties.className as string[]) : [];
    if (node.tagName === 'code' && !classes.some((c) => c.startsWith('language-'))) {
      const lang = classes.find((c) => c.startsWith('lang-'));
      if (lang) node.properties = { ...node.properties, className: [...classes, `language-${lang.slice(5)}`] };
    }
    codeLanguages(node.children);
  }
}

/**
 * Inline HTML that markdown says exactly: these elements with these attributes (GitBook writes
 * them in rich cells, captions and summaries: `<strong>`, `<a href>`, `<code>`, `<img src alt>`).
 */
const SAID: Record<string, string[]> = {
  em: [], i: [], strong: [], b: [], del: [], s: [], strike: [], br: [], code: [],
  a: ['href', 'title'], img: ['src', 'alt', 'title'],
};
/**
 * Inline HTML that markdown cannot say (GitBook's icons `<i class="fa-bolt">`, coloured text
 * `<mark style>`, `<kbd>`, `<sub>`, buttons `<a class="button primary">`, an expression's
 * `<code class="expression">`, a sized `<img width>`), which hast-util-to-mdast would turn
 * into emphasis, links or plain text, or drop: kept as written, an inline `html` node, as the
 * same HTML in a paragraph is.
 */
const UNSAID_TAGS = [
  'mark', 'kbd', 'sub', 'sup', 'span', 'u', 'small', 'abbr', 'cite', 'font', 'ins', 'var', 'samp', 'q', 'time', 'big',
  'bdi', 'bdo', 'dfn', 'data', 'svg', 'math', 'video', 'audio', 'picture', 'iframe',
];
/** Handlers keeping unsaid inline HTML: its text in `source` (the HTML the nodes were parsed from), else printed again. */
function unsaidHandlers(source: string | undefined): Record<string, Handle> {
  const keep = (tag: string): Handle => (state, node, parent) => {
    const said = SAID[tag];
    if (said && Object.keys(node.properties ?? {}).every((key) => said.includes(key))) return (defaultHandlers as Record<string, Handle>)[tag]!(state, node, parent);
    const start = node.position?.start.offset;
    const end = node.position?.end.offset;
    const written = source !== undefined && start !== undefined && end !== undefined ? source.slice(start, end) : undefined;
    // As phrasing (an inline code node marked as HTML) so it stays in its paragraph; made `html` below.
    return { type: 'inlineCode', value: written && written.endsWith('>') ? written : toHtml(node), data: { unsaidHtml: true } } as InlineCode;
  };
  return Object.fromEntries([...Object.keys(SAID), ...UNSAID_TAGS].map((tag) => [tag, keep(tag)]));
}

/**
 * hast content -> mdast flow content (blocks); loose phrasing is wrapped in paragraphs. `source`: the HTML the nodes were parsed from, so inline HTML kept as such keeps
 * its bytes.
 */
export function hastToMdast(children: ElementContent[], source?: string): RootContent[] {
  codeLanguages(children);
  const root = toMdast({ type: 'root', children }, { newlines: true, handlers: unsaidHandlers(source) }) as MdastRoot;
  const inline = new Set<RootContent>();
  visit(root, 'inlineCode', (node, index, parent) => {
    if (!(node.data as { unsaidHtml?: boolean } | undefined)?.unsaidHtml || !parent || index === undefined) return;
    const html: RootContent = { type: 'html', value: node.value };
    inline.add(html);
    parent.children[index] = html as never;
  });
  const out: RootContent[] = [];
  for (const node of root.children) {
    if (phrasing(node) || inline.has(node)) {
      const inlineNode = node as PhrasingContent;
      const last = out.at(-1);
      if (last?.type === 'paragraph' && (last as { loose?: boolean }).loose) last.children.push(inlineNode);
      else out.push({ type: 'paragraph', children: [inlineNode], loose: true } as RootContent);
    } else out.push(node);
  }
  for (const node of out) if (node.type === 'paragraph') delete (node as { loose?: boolean }).loose;
  return out.filter((n) => !(n.type === 'paragraph' && n.children.every((c) => c.type === 'text' && !c.value.trim())));
}

/** mdast flow content -> HTML, without the newlines mdast-util-to-hast puts between blocks. */
export function mdastToHtml(children: RootContent[]): string {
  const hast = toHast({ type: 'root', children } as MdastRoot, { allowDangerousHtml: true }) as HastRoot;
  hast.children = hast.children.filter((c) => !(c.type === 'text' && c.value.trim() === ''));
  return toHtml(hast, { allowDangerousHtml: true });
}

/** Attributes of an element as stored in block data (hast property names, JSON values). */
export function elementAttributes(element: Element, skip: string[] = []): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(element.properties ?? {})) {
    if (skip.includes(key) || value === undefined || value === null) continue;
    out[key] = value;
  }
  return out;
}

export { toHtml };

/**
 * Blank lines inside an HTML `<table>` end the HTML block in CommonMark, which splits a
 * table whose cell holds multi-line code. Before parsing, such blank lines become a line
 * holding BLANK_MARK (same indentation), so the table stays one HTML block; restoreBlanks
 * gives the lines back in the block's text. Fenced code is left alone.
 */
export const BLANK_MARK = '\u2063';
const TABLE_OPEN = /^([ \t]*)<table[\s>]/i;
const TABLE_CLOSE = /<\/table>/i;
const FENCE = /^[ \t]*(`{3,}|~{3,})/;

export function protectTableBlanks(markdown: string): string {
  if (!/<table/i.test(markdown)) return markdown;
  const lines = markdown.split('\n');
  let lastClose = -1;
  lines.forEach((l, i) => TABLE_CLOSE.test(l) && (lastClose = i));
  let fence: string | undefined;
  let indent: string | undefined;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (indent !== undefined) {
      if (/^[ \t]*$/.test(line) && i < lastClose) lines[i] = `${indent}${BLANK_MARK}`;
      if (TABLE_CLOSE.test(line)) indent = undefined;
      continue;
    }
    const f = FENCE.exec(line);
    if (fence) {
      if (f && f[1]!.startsWith(fence)) fence = undefined;
      continue;
    }
    if (f) {
      fence = f[1]!;
      continue;
    }
    const open = TABLE_OPEN.exec(line);
    if (open && !TABLE_CLOSE.test(line)) indent = open[1]!;
  }
  return lines.join('\n');
}

export function restoreBlanks(value: string): string {
  return value.includes(BLANK_MARK) ? value.replace(new RegExp(`^[ \\t]*${BLANK_MARK}$`, 'gm'), '') : value;
}
