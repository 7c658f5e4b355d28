/**
 * A faster road to the same mdast, for the pages it can show it reads alike.
 *
 * micromark (mdast.ts) costs ~1 ms of CPU per small page, about twice that while V8 is cold:
 * a Git import of 1,000 pages spent most of its time there. markdown-it reads CommonMark
 * some 30 times faster. This module parses a page with markdown-it (CommonMark, plus the
 * GitBook tag lines and YAML frontmatter of processor.ts) and converts its tokens to the mdast
 * micromark builds, without positions (nothing past the parse reads them: HTML is read again
 * from its nodes' values).
 *
 * It answers only where the two agree, and `undefined` otherwise (mdast.ts then parses with
 * micromark): pages that may hold GFM syntax other than tables as GitBook writes them
 * (strikethrough, footnotes, task items, literal autolinks in text; tables inside containers,
 * without leading pipes or with rows of another length than their header), math, HTML
 * blocks that end at an end marker (`<pre>`, comments), link reference definitions,
 * integration tags, line endings other than `\n`, whitespace JavaScript's `trim` reads and
 * CommonMark does not, and each place the two parsers were seen to differ (marked where it is
 * refused below).
 * test/markdown-fast-path.test.ts compares both parsers on fixtures, package READMEs, GitBook
 * pages and random pages built from the characters and lines markdown reads.
 */
import type { Nodes, Parent, PhrasingContent, Root, RootContent, Text } from 'mdast';
import MarkdownIt from 'markdown-it';
import type { StateBlock, Token } from 'markdown-it';
import { toString } from 'mdast-util-to-string';
import { GFM_PATTERNS } from './gfm.ts';

/**
 * Pages larger than this go to micromark's chunked, linear-time parse. markdown-it is linear
 * too, but slower than micromark on some hostile text (256 KB of `![`: 1.7 s against 0.9 s),
 * so the worst page costs what it did before the fast path.
 */
export const FAST_PATH_MAX_CHARS = 64 * 1024;

/**
 * Raw text that sends a page to micromark: what the GFM, math and integration-tag syntaxes
 * need (`~`, `[^`, `$$`, a task item's `[ ]`; an integration tag's `{% @` is found per line,
 * in linesUnsupported), line endings other than `\n`, and whitespace JavaScript's `trim`
 * removes where CommonMark keeps it (markdown-it trims paragraphs and headings with it).
 */
const UNSUPPORTED = /~|\[\^|\$\$|\[[ \t xX]\]|[\r\0\v\f\u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]/;

/** Whether some line ends in whitespace holding a tab (a scan, not a regular expression: runs of whitespace would backtrack). */
function tabAtLineEnd(text: string): boolean {
  for (let end = text.indexOf('\n'), start = 0; start <= text.length; start = end + 1, end = text.indexOf('\n', start)) {
    let i = (end < 0 ? text.length : end) - 1;
    while (i >= start && (text[i] === ' ' || text[i] === '\t')) if (text[i--] === '\t') return true;
    if (end < 0) break;
  }
  return false;
}

const LONG_DELIMITER_RUN = /[*_]{3}/;
const DELIMITER_RUNS = /[*_]+/g;
const PUNCTUATION = /[\p{P}\p{S}]/u;
const WHITESPACE = /\s/;
const WS = 0;
const PUNCT = 1;
const charClass = (char: string | undefined) => (char === undefined || WHITESPACE.test(char) ? WS : PUNCTUATION.test(char) ? PUNCT : 2);

/**
 * Inline text the two parsers were seen to read differently: whitespace ending a line that
 * holds a tab (hard breaks, trailing whitespace), runs of three or more emphasis delimiters,
 * and delimiter runs that can both open and close emphasis (CommonMark's rule of 3, which
 * micromark applies to what is left of a run and markdown-it to the whole run): `*` between
 * two letters or two punctuation marks, `_` between two punctuation marks (between letters
 * it does neither, as in `snake_case`).
 */
function inlineUnsupported(source: string): boolean {
  if (tabAtLineEnd(source) || LONG_DELIMITER_RUN.test(source)) return true;
  for (const run of source.matchAll(DELIMITER_RUNS)) {
    const before = charClass(source[run.index - 1]);
    const after = charClass(source[run.index + run[0].length]);
    if (before === WS || before !== after) continue;
    if (run[0][0] === '*' || before === PUNCT) return true;
  }
  return false;
}

/**
 * Lines that send a page to micromark: `>` after four columns of indentation (markdown-it
 * reads a block quote marker on a lazy line where micromark reads text), a tab after `>` (the
 * two count the tab's columns apart), an integration tag (`{% @x/y`, values over lines).
 * Scanned line by line: regular expressions over runs of spaces would backtrack.
 */
function linesUnsupported(markdown: string): boolean {
  if (markdown.includes('>\t')) return true;
  for (const line of markdown.split('\n')) {
    let indent = 0;
    while (line[indent] === ' ' || line[indent] === '\t') indent++;
    if (line[indent] === '>' && (indent >= 4 || line.slice(0, indent).includes('\t'))) return true;
    const tag = line.indexOf('{%');
    if (tag >= 0 && line.indexOf('@', tag) >= 0) return true;
  }
  return false;
}

/**
 * CommonMark's HTML blocks that end only at an end marker (raw `<pre>`, `<script>`, `<style>`,
 * `<textarea>`, comments, processing instructions, declarations, CDATA): micromark starts a
 * block at a raw end tag where markdown-it reads inline HTML, and keeps different trailing
 * line endings in one left open.
 */
const HTML_WITH_END_MARKER = /<(?:\/?(?:pre|script|style|textarea)|!|\?)/i;

/** A line micromark may read as a table's delimiter row (checked against the tables markdown-it read): `-` with `|` or `:`. */
const delimiterRow = (line: string) => /^[|: \t>-]*$/.test(line) && line.includes('-') && (line.includes('|') || line.includes(':'));

/** A link reference definition may be on the page: markdown-it resolves references, mdast keeps them. */
const DEFINITION = /\]:/;

/** Deeper than this, markdown-it (maxNesting 100) may have stopped nesting where micromark did not. */
const MAX_DEPTH = 60;

const md = new MarkdownIt('commonmark', { maxNesting: 100 });
// mdast keeps destinations as written (escapes and references decoded): no encoding, no
// punycode, no refusal of `javascript:` (the document model decides what a link may be).
md.normalizeLink = (url) => url;
md.normalizeLinkText = (text) => text;
md.validateLink = () => true;
md.enable('table');
md.block.ruler.before('lheading', 'gitbook_tag', gitbookTag, { alt: ['paragraph', 'reference', 'blockquote', 'list'] });
/** Whether this markdown-it has what this module relies on (else every page goes to micromark). */
export const fastPathAvailable = markMultilineCodeSpans();

/**
 * markdown-it turns a code span's line endings into spaces, mdast keeps them (and drops the
 * next line's indentation): code spans over several lines are marked, and left to micromark.
 * The code span rule is found by the name markdown-it registers it under (`__rules__`, which
 * its types declare; a function's own name would not survive the Lambdas' minified bundles);
 * a markdown-it without it turns the fast path off rather than parse code spans unmarked.
 */
function markMultilineCodeSpans(): boolean {
  const backticks = md.inline.ruler.__rules__.find((rule) => rule.name === 'backticks')?.fn;
  if (!backticks) return false;
  md.inline.ruler.at('backticks', (state, silent) => {
    const start = state.pos;
    const count = state.tokens.length;
    const matched = backticks(state, silent);
    if (matched && !silent && state.tokens.length > count && state.src.slice(start, state.pos).includes('\n')) state.tokens.at(-1)!.meta = { multiline: true };
    return matched;
  });
  return true;
}

/** Tag name characters, as syntax.ts reads them (integration names, with `@`, are not taken here). */
const isNameStart = (c: number) => c >= 97 && c <= 122;
const isNameChar = (c: number) => (c >= 97 && c <= 122) || (c >= 48 && c <= 57) || c === 45 || c === 95;

/**
 * A whole line `{% name ... %}` (syntax.ts's flow construct): `{%`, an optional `-`, spaces,
 * a name, then a space or `%`, and `%}` closing the line (spaces after it allowed).
 */
function tagLine(line: string): boolean {
  if (!line.startsWith('{%')) return false;
  let i = 2;
  if (line.charCodeAt(i) === 45) i++;
  while (line.charCodeAt(i) === 32 || line.charCodeAt(i) === 9) i++;
  if (!isNameStart(line.charCodeAt(i))) return false;
  while (isNameChar(line.charCodeAt(i))) i++;
  const after = line.charCodeAt(i);
  if (after !== 32 && after !== 9 && after !== 37) return false;
  let end = line.length;
  while (end > i && (line[end - 1] === ' ' || line[end - 1] === '\t')) end--;
  return end - 2 >= i && line.startsWith('%}', end - 2);
}

function gitbookTag(state: StateBlock, startLine: number, _endLine: number, silent: boolean): boolean {
  if (state.sCount[startLine]! - state.blkIndent >= 4) return false;
  const line = state.src.slice(state.bMarks[startLine]! + state.tShift[startLine]!, state.eMarks[startLine]!);
  if (!tagLine(line)) return false;
  if (silent) return true;
  const token = state.push('gitbook_tag', '', 0);
  token.content = line.trim();
  token.map = [startLine, startLine + 1];
  state.line = startLine + 1;
  return true;
}

/** YAML frontmatter as micromark-extension-frontmatter reads it: `---` lines around the value. */
function splitFrontmatter(markdown: string): { value: string; body: string } | undefined {
  const open = /^---[ \t]*\n/.exec(markdown);
  if (!open) return undefined;
  const rest = markdown.slice(open[0].length);
  const at = rest.search(/^---[ \t]*$/m);
  if (at < 0) return undefined;
  const lineEnd = rest.indexOf('\n', at);
  return { value: rest.slice(0, Math.max(0, at - 1)), body: lineEnd < 0 ? '' : rest.slice(lineEnd + 1) };
}

class Unsupported extends Error {}

/** A token's attribute as a string (markdown-it types attributes as string | number). */
const attr = (token: Token, name: string): string | null => {
  const value = token.attrGet(name);
  return value === null ? null : String(value);
};

/** The mdast micromark would build for `markdown` (without positions), or undefined where not proven alike. */
export function fastMdast(markdown: string, withFrontmatter: boolean): Root | undefined {
  if (!fastPathAvailable || markdown.length > FAST_PATH_MAX_CHARS || UNSUPPORTED.test(markdown) || DEFINITION.test(markdown) || linesUnsupported(markdown) || HTML_WITH_END_MARKER.test(markdown)) return undefined;
  const root: Root = { type: 'root', children: [] };
  let body = markdown;
  if (withFrontmatter && markdown.startsWith('---')) {
    const front = splitFrontmatter(markdown);
    if (front) {
      root.children.push({ type: 'yaml', value: front.value });
      body = front.body;
    }
  }
  const env: Record<string, unknown> = {};
  const tokens = md.parse(body, env);
  if (env.references && Object.keys(env.references).length > 0) return undefined;
  try {
    const converter = new Converter(body);
    converter.blocks(tokens, root);
    if (converter.unreadTableDelimiter()) return undefined;
  } catch (error) {
    if (error instanceof Unsupported) return undefined;
    throw error;
  }
  if (GFM_PATTERNS.autolinkLiteral.test(body) && textMatches(root, GFM_PATTERNS.autolinkLiteral)) return undefined;
  return root;
}

/**
 * Whether some text node matches `pattern`. GFM's literal autolinks start in text (not in
 * destinations, titles or code), so a page whose `@`, `www.` and `http(s)://` all sit
 * elsewhere parses the same with or without them.
 */
function textMatches(tree: Nodes, pattern: RegExp): boolean {
  if (tree.type === 'text') return pattern.test(tree.value);
  return 'children' in tree && tree.children.some((child) => textMatches(child as Nodes, pattern));
}

type Block = RootContent & Partial<Parent>;

class Converter {
  private readonly lines: string[];
  /** Block nodes' lines: the first, and the one after their last block's end. */
  private readonly spans = new Map<object, [number, number]>();
  /** Lines that are the delimiter row of a table read here. */
  private readonly tableDelimiters = new Set<number>();
  /** Cells of the header of the table being read. */
  private headerCells = 0;
  constructor(source: string) {
    this.lines = source.split('\n');
  }

  /** Converts block tokens into `parent`'s children. */
  blocks(tokens: Token[], parent: Parent): void {
    const stack: { node: Parent; token: Token }[] = [];
    let current: Parent = parent;
    const push = (node: Block, token: Token) => {
      // An item whose first line is blank: micromark may read it as paragraph text (the stale interrupt flag).
      const parentToken = stack.at(-1)?.token;
      if (parentToken?.type === 'list_item_open' && current.children.length === 0 && token.map?.[0] !== parentToken.map?.[0]) throw new Unsupported();
      current.children.push(node as never);
      this.spans.set(node, token.map as [number, number]);
      if (token.nesting === 1) {
        stack.push({ node: current, token });
        if (stack.length > MAX_DEPTH) throw new Unsupported();
        current = node as Parent;
      }
    };
    for (const token of tokens) {
      switch (token.type) {
        case 'paragraph_open':
          // A paragraph in a list item or quote going on with a line of HTML (a lazy line): micromark ends the paragraph there.
          if (stack.length > 0 && this.lines.slice(token.map![0] + 1, token.map![1]).some((line) => /^[ \t>]*</.test(line))) throw new Unsupported();
          push({ type: 'paragraph', children: [] }, token);
          break;
        case 'heading_open': push({ type: 'heading', depth: Number(token.tag.slice(1)) as 1, children: [] }, token); break;
        case 'blockquote_open': push({ type: 'blockquote', children: [] }, token); break;
        case 'bullet_list_open': push({ type: 'list', ordered: false, start: null, spread: false, children: [] }, token); break;
        case 'ordered_list_open': push({ type: 'list', ordered: true, start: Number(token.attrGet('start') ?? 1), spread: false, children: [] }, token); break;
        case 'list_item_open':
          // micromark refuses a list starting at another number than `1` after some blocks (a stale interrupt flag).
          if ((current as { type: string }).type === 'list' && current.children.length === 0 && (current as { ordered?: boolean }).ordered && token.info !== '1') throw new Unsupported();
          push({ type: 'listItem', spread: false, checked: null, children: [] }, token); break;
        case 'list_item_close':
          // Empty items, and items opening with a list, are read differently by the two.
          if (current.children.length === 0 || current.children[0]!.type === 'list') throw new Unsupported();
          current = stack.pop()!.node;
          break;
        case 'blockquote_close': {
          // A block quote ends with its last line: blank lines markdown-it counted in are outside it.
          const span = this.spans.get(current)!;
          while (span[1] > span[0] && this.blank(span[1] - 1)) span[1]--;
          current = stack.pop()!.node;
          break;
        }
        case 'paragraph_close': case 'heading_close':
          current = stack.pop()!.node;
          break;
        case 'bullet_list_close': case 'ordered_list_close': {
          const list = current as Extract<Nodes, { type: 'list' }>;
          const open = stack.pop()!;
          this.spread(list);
          // A list inside a container with two blank lines after it, or inside a quote with one: micromark may call it spread.
          const after = this.spans.get(list)![1];
          if (stack.length > 0 && this.blankInContainers(after) && (this.blankInContainers(after + 1) || open.node.type === 'blockquote')) throw new Unsupported();
          current = open.node;
          break;
        }
        case 'inline':
          if (inlineUnsupported(token.content)) throw new Unsupported();
          this.inlines(token.children ?? [], current as Parent & { children: PhrasingContent[] }, stack.length); break;
        case 'table_open':
          // Tables inside list items or quotes: their rows' source lines carry the containers' markers.
          if (stack.length > 0) throw new Unsupported();
          // Only tables as GitBook writes them: every row opening with `|` (a line that does not is
          // a row to markdown-it and may end the table for micromark), after a blank line.
          if (this.lines.slice(token.map![0], token.map![1]).some((line) => !line.startsWith('|')) || (token.map![0] > 0 && !this.blank(token.map![0] - 1))) throw new Unsupported();
          this.tableDelimiters.add(token.map![0] + 1);
          push({ type: 'table', align: [], children: [] }, token);
          break;
        case 'tr_open': {
          // markdown-it pads and cuts rows to the header's cells, mdast keeps each row's own.
          const cells = this.cells(token);
          if (current.children.length === 0) this.headerCells = cells;
          else if (cells !== this.headerCells) throw new Unsupported();
          push({ type: 'tableRow', children: [] }, token);
          break;
        }
        case 'th_open': case 'td_open': {
          const table = stack.at(-1)!.node as unknown as { children: unknown[] } & Extract<Nodes, { type: 'table' }>;
          if (token.type === 'th_open') table.align!.push((/text-align:(left|right|center)/.exec(attr(token, 'style') ?? '')?.[1] ?? null) as 'left' | null);
          push({ type: 'tableCell', children: [] }, token);
          break;
        }
        case 'thead_open': case 'thead_close': case 'tbody_open': case 'tbody_close': break;
        case 'tr_close': case 'th_close': case 'td_close': case 'table_close':
          current = stack.pop()!.node;
          break;
        case 'hr': push({ type: 'thematicBreak' }, token); break;
        case 'code_block':
          // Whitespace-only lines after indented code: micromark may keep them in the code.
          if (this.whitespaceLineAfter(token)) throw new Unsupported();
          // Indented code right under a line (which it cannot interrupt): a lazy line to micromark, whose tab columns differ.
          if (token.map![0] > 0 && !this.blank(token.map![0] - 1)) throw new Unsupported();
          // Indented code of several lines: micromark may split it in two (at blank lines, tabs, deeper lines).
          if (token.map![1] - token.map![0] > 1 || token.content.includes('\t') || token.content.includes('{%')) throw new Unsupported();
          push({ type: 'code', lang: null, meta: null, value: token.content.replace(/\n$/, '') }, token); break;
        case 'fence': push(this.fence(token), token); break;
        case 'gitbook_tag': push({ type: 'gitbookTag', value: token.content } as Block, token); break;
        case 'html_block':
          // A tab indenting HTML: micromark turns the columns a container marker left of it into spaces.
          if (/(?:^|\n)[ ]*\t/.test(token.content)) throw new Unsupported();
          push({ type: 'html', value: token.content.replace(/\n$/, '') }, token);
          break;
        default: throw new Unsupported();
      }
    }
  }

  private fence(token: Token): Block {
    // A fence left open runs to the end of the page, where the two keep different trailing lines.
    if (!this.closed(token)) throw new Unsupported();
    // micromark splits the raw info string before decoding it, and keeps the meta's trailing spaces.
    const info = token.info.replace(/^[ \t]+/, '');
    if (info.includes('&') || info.includes('\\')) throw new Unsupported();
    const space = info.search(/[ \t]/);
    const lang = space < 0 ? info : info.slice(0, space);
    const meta = space < 0 ? '' : info.slice(space).replace(/^[ \t]+/, '');
    return { type: 'code', lang: lang || null, meta: meta || null, value: token.content.replace(/\n$/, '') };
  }

  /**
   * mdast's spread (markdown-it's `tight` is CommonMark's looseness, which mdast splits in two),
   * from the lines blocks cover: an item is spread when lines (blank ones, within its
   * containers) separate two of its children, a list when they separate two of its items. A
   * nested list ends with its last block, so the blank lines after it count for the item
   * holding it, as in mdast-util-from-markdown.
   */
  private spread(list: Parent): void {
    const span = (node: object) => this.spans.get(node)!;
    const gap = (nodes: object[]) => nodes.some((node, i) => i > 0 && span(node)[0] > span(nodes[i - 1]!)[1]);
    for (const item of list.children as Parent[]) {
      (item as { spread?: boolean }).spread = gap(item.children);
      span(item)[1] = span(item.children.at(-1)!)[1];
    }
    (list as { spread?: boolean }).spread = gap(list.children);
    span(list)[1] = span(list.children.at(-1)!)[1];
  }

  /**
   * Whether a line that could be a table's delimiter row to micromark (`-` with `|` or `:`) is
   * not one of a table read here: micromark's GFM tables take more than markdown-it's.
   */
  unreadTableDelimiter(): boolean {
    return this.lines.some((line, i) => delimiterRow(line) && !this.tableDelimiters.has(i));
  }

  /** Cells of a table row's source line: its unescaped `|` separate them, outer ones aside (GFM). */
  private cells(row: Token): number {
    if (!row.map) throw new Unsupported();
    let line = (this.lines[row.map[0]] ?? '').trim();
    if (line.startsWith('|')) line = line.slice(1);
    let count = 1;
    let escaped = false;
    for (let i = 0; i < line.length; i++) {
      const char = line[i];
      if (char === '\\') escaped = !escaped;
      else {
        if (char === '|' && !escaped && i < line.length - 1) count++;
        escaped = false;
      }
    }
    return count;
  }

  private closed(fence: Token): boolean {
    const [start, end] = fence.map as [number, number];
    if (end - start < 2) return false;
    const last = (this.lines[end - 1] ?? '').trim();
    return last.length >= fence.markup.length && last[0] === fence.markup[0] && /^(`+|~+)$/.test(last);
  }

  private whitespaceLineAfter(code: Token): boolean {
    for (let line = code.map![1]; line < this.lines.length && this.blank(line); line++) if (this.lines[line] !== '') return true;
    return false;
  }

  /** Whether a line is blank once block quote markers are taken off (conservatively: any `>` at its start). */
  private blankInContainers(line: number): boolean {
    return line < this.lines.length && /^[ \t>]*$/.test(this.lines[line]!);
  }

  private blank(line: number): boolean {
    return /^[ \t]*$/.test(this.lines[line] ?? '');
  }

  /** Inline tokens into `parent`'s phrasing children, text merged as mdast-util-from-markdown does. */
  inlines(tokens: Token[], parent: Parent & { children: PhrasingContent[] }, depth: number): void {
    const stack: Parent[] = [];
    let current: Parent = parent;
    const text = (value: string) => {
      if (value === '') return;
      const tail = current.children.at(-1);
      if (tail?.type === 'text') (tail as Text).value += value;
      else current.children.push({ type: 'text', value } as never);
    };
    const open = (node: Parent & PhrasingContent) => {
      current.children.push(node as never);
      stack.push(current);
      if (stack.length + depth > MAX_DEPTH) throw new Unsupported();
      current = node;
    };
    for (const token of tokens) {
      switch (token.type) {
        case 'text': text(token.content); break;
        case 'softbreak': text('\n'); break;
        case 'hardbreak': current.children.push({ type: 'break' } as never); break;
        case 'html_inline': current.children.push({ type: 'html', value: token.content } as never); break;
        case 'code_inline':
          if (token.meta?.multiline) throw new Unsupported();
          current.children.push({ type: 'inlineCode', value: token.content } as never); break;
        case 'em_open': open({ type: 'emphasis', children: [] }); break;
        case 'strong_open': open({ type: 'strong', children: [] }); break;
        case 'link_open':
          // markdown-it lets an escaped line ending into a destination; micromark ends the link there.
          if (attr(token, 'href')?.includes('\n')) throw new Unsupported();
          open({ type: 'link', title: attr(token, 'title'), url: attr(token, 'href') ?? '', children: [] }); break;
        case 'em_close': case 'strong_close': case 'link_close': current = stack.pop()!; break;
        case 'image': {
          if (attr(token, 'src')?.includes('\n')) throw new Unsupported();
          const label: Parent & { children: PhrasingContent[] } = { type: 'paragraph', children: [] } as never;
          this.inlines(token.children ?? [], label, depth + stack.length);
          current.children.push({ type: 'image', title: attr(token, 'title'), url: attr(token, 'src') ?? '', alt: toString(label) } as never);
          break;
        }
        default: throw new Unsupported();
      }
    }
  }
}

