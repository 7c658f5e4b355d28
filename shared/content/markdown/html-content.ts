/**
 * HTML that holds document content (GitBook writes rich table cells, figure captions and
 * expandable titles as HTML) <-> document blocks, through maintained libraries: HTML is
 * parsed by hast-util-from-html and read as mdast by hast-util-to-mdast, then converted like
 * any markdown; going back, blocks become mdast, then hast (mdast-util-to-hast), then HTML.
 */
import type { Element, ElementContent, Root as HastRoot } from 'hast';
import { fromHtml } from 'hast-util-from-html';
import { toHtml } from 'hast-util-to-html';
import { toMdast } from 'hast-util-to-mdast';
import { phrasing } from 'mdast-util-phrasing';
import type { Root as MdastRoot, RootContent } from 'mdast';
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

/** hast content -> mdast flow content (blocks); loose phrasing is wrapped in paragraphs. */
export function hastToMdast(children: ElementContent[]): RootContent[] {
  codeLanguages(children);
  const root = toMdast({ type: 'root', children }, { newlines: true }) as MdastRoot;
  const out: RootContent[] = [];
  for (const node of root.children) {
    if (phrasing(node)) {
      const last = out.at(-1);
      if (last?.type === 'paragraph' && (last as { loose?: boolean }).loose) last.children.push(node);
      else out.push({ type: 'paragraph', children: [node], loose: true } as RootContent);
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
