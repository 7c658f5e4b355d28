/**
 * What a page's markdown may cost. Checked in two steps so that no input reaches the
 * expensive work unbounded:
 *  1. before parsing, in one linear pass: size in bytes, and container markers chained on
 *     one line (`- - - x`, `>>>> x`), which micromark handles in quadratic time;
 *  2. after parsing, iteratively: nesting of the tree (indented lists, nested emphasis)
 *     and the number of nodes of the document.
 * Every recursive step after that (conversion, printing, refs, keys) then stays far from
 * the stack limit. The figures are measured in bench/parser (npm run bench:parser).
 */

/**
 * Bytes (UTF-8) of one page's markdown. Parsing runs in workers, but the document comes
 * back to the main thread as JSON (parsed, hashed, stored): at 256 KiB (a ~3 MB document)
 * that holds the event loop ~100 ms, at 512 KiB ~190 ms (test/content-limits.test.ts).
 */
export const MAX_MARKDOWN_BYTES = 256 * 1024;
/** Block quotes, list items, tag blocks and inline containers (emphasis, links) inside each other. */
export const MAX_MARKDOWN_NESTING = 32;
/** Nodes (blocks, inlines, texts and leaves) of one page document. */
export const MAX_DOCUMENT_NODES = 200_000;
/**
 * Emphasis and link markers (`*`, `_`, `[`, `]`) in one paragraph (or heading, or table
 * row): micromark matches them in quadratic time within one paragraph; at this bound a
 * page of such paragraphs costs no more per KB than ordinary markdown.
 */
export const MAX_PARAGRAPH_MARKERS = 1000;
/**
 * Container levels summed over the lines of a page (each line's `>` and list markers plus
 * its indentation / 2, fenced code aside). micromark's cost per line grows with the
 * containers it continues, and within one container it grows with the container's size.
 */
export const MAX_CONTAINER_LEVELS = 20_000;

/** A markdown or document input over a limit; the message names the limit, the caller the field. */
export class ContentLimitError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ContentLimitError';
  }
}

export const nestingMessage = (limit: number) => `nests deeper than ${limit} levels`;
export const nodesMessage = (limit: number) => `has more than ${limit} nodes`;

/** Nesting past a limit (kept as its own class: callers and tests tell it apart). */
export class MarkdownNestingError extends ContentLimitError {
  constructor(limit: number) {
    super(nestingMessage(limit));
    this.name = 'MarkdownNestingError';
  }
}

/** Throws ContentLimitError when the markdown breaks a limit checked before parsing. */
export function assertMarkdownPrecheck(markdown: string): void {
  const issue = markdownPrecheck(markdown);
  if (issue === nestingMessage(MAX_MARKDOWN_NESTING)) throw new MarkdownNestingError(MAX_MARKDOWN_NESTING);
  if (issue) throw new ContentLimitError(issue);
}

/** The first limit the markdown breaks before parsing, or undefined. Linear in its length. */
export function markdownPrecheck(markdown: string): string | undefined {
  // UTF-8 is at most 3 bytes per UTF-16 unit: only count when it could matter.
  if (markdown.length * 3 > MAX_MARKDOWN_BYTES && Buffer.byteLength(markdown, 'utf8') > MAX_MARKDOWN_BYTES) {
    return `is larger than ${MAX_MARKDOWN_BYTES / 1024} KiB (${MAX_MARKDOWN_BYTES} bytes)`;
  }
  if (maxLinePrefixNesting(markdown) > MAX_MARKDOWN_NESTING) return nestingMessage(MAX_MARKDOWN_NESTING);
  const scan = scanLines(markdown);
  if (scan.paragraphMarkers > MAX_PARAGRAPH_MARKERS) {
    return `has more than ${MAX_PARAGRAPH_MARKERS} emphasis or link markers (* _ [ ]) in one paragraph`;
  }
  if (scan.containerLevels > MAX_CONTAINER_LEVELS) {
    return `has more than ${MAX_CONTAINER_LEVELS} list and block quote levels in all (summed over its lines)`;
  }
  return undefined;
}

const SPACE = 32;
const TAB = 9;
const GT = 62;
const isDigit = (c: number) => c >= 48 && c <= 57;
const isBulletChar = (c: number) => c === 42 || c === 43 || c === 45; // * + -

/**
 * The most container markers (block quote `>`, list markers) opening one line. A line
 * that ends in a thematic break (`* * *`) is not counted past where the break starts.
 */
export function maxLinePrefixNesting(markdown: string): number {
  let max = 0;
  let lineStart = 0;
  while (lineStart <= markdown.length) {
    let lineEnd = markdown.indexOf('\n', lineStart);
    if (lineEnd === -1) lineEnd = markdown.length;
    max = Math.max(max, linePrefixNesting(markdown, lineStart, lineEnd));
    lineStart = lineEnd + 1;
  }
  return max;
}

function linePrefixNesting(s: string, start: number, end: number): number {
  // Where a trailing run of one marker character and blanks (a thematic break) begins.
  let breakFrom = end;
  let last = -1;
  for (let i = end - 1; i >= start; i--) {
    const c = s.charCodeAt(i);
    if (c === SPACE || c === TAB || c === 13) continue;
    if (last === -1 && (c === 42 || c === 45 || c === 95)) last = c;
    if (c !== last) break;
    breakFrom = i;
  }
  let depth = 0;
  let i = start;
  for (;;) {
    while (i < end && (s.charCodeAt(i) === SPACE || s.charCodeAt(i) === TAB)) i++;
    if (i >= end || i >= breakFrom) return depth;
    const c = s.charCodeAt(i);
    if (c === GT) {
      depth++;
      i++;
      continue;
    }
    let j = i;
    if (isBulletChar(c)) j = i + 1;
    else if (isDigit(c)) {
      while (j < end && j - i < 9 && isDigit(s.charCodeAt(j))) j++;
      const after = s.charCodeAt(j);
      if (after !== 46 && after !== 41) return depth; // . )
      j++;
    } else return depth;
    const next = j < end ? s.charCodeAt(j) : SPACE;
    if (next !== SPACE && next !== TAB && j < end) return depth;
    depth++;
    i = j;
  }
}

const FENCE = /^ {0,3}(`{3,}|~{3,})(.*)$/;
/** After container prefixes: a line that starts a block of its own (not a paragraph's next line). */
const BLOCK_START = /^(?:[*+-](?:[ \t]|$)|\d{1,9}[.)](?:[ \t]|$)|#{1,6}(?:[ \t]|$)|\{%|<|`{3,}|~{3,})/;
/** A GFM table's delimiter row. */
const TABLE_DELIMITER = /^\|?[ \t]*:?-+:?[ \t]*(?:\|[ \t]*:?-+:?[ \t]*)*\|?[ \t]*$/;
const MARKER = /[*_[\]]/g;
/** The label and destination of a link reference definition. */
const DEFINITION = /^\[[^\]]{1,999}\]:[ \t]*\S*/;

/**
 * In one linear pass over the lines: the most emphasis and link markers in one paragraph,
 * and the container levels summed over the lines (see MAX_CONTAINER_LEVELS).
 * Fenced code is skipped; container prefixes (`>`, indentation) are stripped; a line that
 * starts a block (list item, heading, tag, HTML) starts a new count, and so does every row
 * of a table (its cells are parsed one by one); definitions' labels and destinations do
 * not count. Approximate by design: it may merge two short paragraphs, never split a long
 * one except at real block starts.
 */
export function scanLines(markdown: string): { paragraphMarkers: number; containerLevels: number } {
  const lines = markdown.split('\n');
  let max = 0;
  let count = 0;
  let containerLevels = 0;
  let fence: { char: string; length: number } | undefined;
  let table = false;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (fence) {
      const close = FENCE.exec(line.replace(/^[> \t]*/, ''));
      if (close && close[1]![0] === fence.char && close[1]!.length >= fence.length && close[2]!.trim() === '') fence = undefined;
      continue;
    }
    const content = line.replace(/^(?:[ \t]*>)*[ \t]*/, '');
    containerLevels += linePrefixNesting(line, 0, line.length) + Math.floor(indentWidth(line) / 2);
    if (content === '') {
      count = 0;
      table = false;
      continue;
    }
    const open = FENCE.exec(content);
    if (open && !(open[1]![0] === '`' && open[2]!.includes('`'))) {
      fence = { char: open[1]![0]!, length: open[1]!.length };
      count = 0;
      continue;
    }
    if (!table && TABLE_DELIMITER.test((lines[i + 1] ?? '').replace(/^(?:[ \t]*>)*[ \t]*/, '')) && content.includes('|')) table = true;
    if (table || BLOCK_START.test(content)) count = 0;
    // A definition's label and destination are not parsed for emphasis or links.
    count += content.replace(DEFINITION, '').match(MARKER)?.length ?? 0;
    if (count > max) max = count;
  }
  return { paragraphMarkers: max, containerLevels };
}

/** Columns of leading blanks (a tab reaches the next multiple of 4). */
function indentWidth(line: string): number {
  let width = 0;
  for (const c of line) {
    if (c === ' ') width++;
    else if (c === '\t') width += 4 - (width % 4);
    else break;
  }
  return width;
}

/** mdast node types that nest content inside themselves (a list nests through its items). */
const NESTING_TYPES = new Set(['blockquote', 'listItem', 'gitbookBlock', 'emphasis', 'strong', 'delete', 'link', 'linkReference', 'footnoteDefinition']);

type TreeNode = { type?: string; children?: unknown[] };

/** Throws ContentLimitError when the parsed tree nests or counts past the limits. Iterative. */
export function assertTreeLimits(root: TreeNode): void {
  const stack: [TreeNode, number][] = [[root, 0]];
  let count = 0;
  while (stack.length > 0) {
    const [node, nesting] = stack.pop()!;
    if (++count > MAX_DOCUMENT_NODES) throw new ContentLimitError(nodesMessage(MAX_DOCUMENT_NODES));
    const level = nesting + (node.type && NESTING_TYPES.has(node.type) ? 1 : 0);
    if (level > MAX_MARKDOWN_NESTING) throw new MarkdownNestingError(MAX_MARKDOWN_NESTING);
    for (const child of node.children ?? []) {
      if (child && typeof child === 'object') stack.push([child as TreeNode, level]);
    }
  }
}
