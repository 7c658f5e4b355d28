/**
 * markdown -> mdast in linear time: the chunks of chunks.ts are parsed one by one with
 * the extensions of the shared processor and their top-level blocks concatenated.
 *
 * Link reference and footnote definitions are global to a page, so every chunk must know
 * the labels defined in the others. micromark keeps them in `parser.defined` and
 * `parser.gfmFootnotes` (arrays searched with `includes`, quadratic with many references);
 * a flow construct that never matches swaps them for Set-backed lists seeded with the
 * labels found so far. Chunks that may use a label defined further down are parsed again
 * once all labels are known.
 *
 * Cost per page (Git import parses every page of a repository): a page is parsed without
 * the syntax extensions it cannot use (syntax-gates.ts), the options handed to fromMarkdown
 * built once per processor and set of extensions; a page shorter than a chunk (most pages) is
 * parsed without the seeding construct (it has no other chunk to share labels with, too few
 * labels for `includes` to matter, and micromark would try the construct at every line);
 * GFM's literal-autolink transform (a walk of the tree per pattern, four) runs only when
 * some text could hold an autolink.
 */
import type { Nodes, Root } from 'mdast';
import { fromMarkdown, type Extension as FromMarkdownExtension, type Options as FromMarkdownOptions, type Transform } from 'mdast-util-from-markdown';
import type { Construct, Extension, State, TokenizeContext } from 'micromark-util-types';
import { CHUNK_BYTES, chunkStarts } from './chunks.ts';
import { fastMdast } from './fast-mdast.ts';
import { bodyProcessor, processor } from './processor.ts';
import { GFM_PATTERNS } from './gfm.ts';
import { extensionsFor } from './syntax-gates.ts';

/** `parser.defined` with constant-time `includes`. */
class DefinedLabels extends Array<string> {
  static override get [Symbol.species]() {
    return Array;
  }
  private readonly set = new Set<string>();
  override push(...labels: string[]): number {
    for (const label of labels) this.set.add(label);
    return super.push(...labels);
  }
  override includes(label: string): boolean {
    return this.set.has(label);
  }
}

/** Labels of a page: link definitions as `L:<label>`, footnote definitions as `F:<label>`. */
type Labels = ReadonlySet<string>;

interface SeededParser {
  defined: string[];
  gfmFootnotes?: string[];
}

/** What the seeding construct seeds, for the chunk being parsed (fromMarkdown is synchronous). */
let seeding: { labels: Labels; onLists(links: DefinedLabels, footnotes: DefinedLabels): void } | undefined;

/**
 * A flow construct that never matches: on its first try it replaces the parser's lists of
 * defined labels (`defined`, and `gfmFootnotes` of the GFM footnote syntax) with
 * DefinedLabels seeded from `seeding.labels`, and hands both lists to `seeding.onLists`.
 */
const seedConstruct: Construct = {
  name: 'seedDefinitions',
  tokenize(this: TokenizeContext, _effects, _ok, nok): State {
    const parser = this.parser as unknown as SeededParser;
    if (seeding && !(parser.defined instanceof DefinedLabels)) {
      const links = new DefinedLabels();
      const footnotes = new DefinedLabels();
      for (const label of parser.defined) links.push(label);
      for (const label of parser.gfmFootnotes ?? []) footnotes.push(label);
      for (const label of seeding.labels) (label.startsWith('L:') ? links : footnotes).push(label.slice(2));
      parser.defined = links;
      parser.gfmFootnotes = footnotes;
      seeding.onLists(links, footnotes);
    }
    return (code) => nok(code);
  },
};
const seedDefinitions: Extension = { flow: { null: [seedConstruct] } };

/**
 * Whether GFM's literal-autolink transform could change a tree: its patterns need what the
 * literal-autolink syntax needs (GFM_PATTERNS: `@`, `http://`, `https://` or `www.`), here
 * within one text node (decoded, so `&#64;` counts).
 */
function mayHoldAutolinks(tree: Root): boolean {
  const stack: Nodes[] = [tree];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (node.type === 'text' && GFM_PATTERNS.autolinkLiteral.test(node.value)) return true;
    if ('children' in node) for (const child of node.children) stack.push(child);
  }
  return false;
}

/** The literal-autolink extension (known by its token names) with its transform run only where mayHoldAutolinks. */
function guardAutolinks(extension: FromMarkdownExtension): FromMarkdownExtension {
  if (!extension.enter || !('literalAutolink' in extension.enter) || !extension.transforms?.length) return extension;
  const transforms = extension.transforms.map((transform): Transform => (tree) => (mayHoldAutolinks(tree) ? transform(tree) : undefined));
  return { ...extension, transforms };
}

/**
 * fromMarkdown's options for a processor and a page, built once per set of extensions the
 * page needs (syntax-gates.ts): without and with the seeding construct.
 */
const syntaxes = new Map<unknown, Map<number, Syntax>>();
interface Syntax { plain: FromMarkdownOptions; seeded: FromMarkdownOptions }
function syntaxOf(source: typeof processor | typeof bodyProcessor, page: string): Syntax {
  let bySubset = syntaxes.get(source);
  if (!bySubset) syntaxes.set(source, (bySubset = new Map()));
  const { key, active: extensions } = extensionsFor(source.data('micromarkExtensions') ?? [], page);
  let syntax = bySubset.get(key);
  if (!syntax) {
    const mdastExtensions = (source.data('fromMarkdownExtensions') ?? []).flat().map(guardAutolinks);
    syntax = { plain: { extensions, mdastExtensions }, seeded: { extensions: [...extensions, seedDefinitions], mdastExtensions } };
    bySubset.set(key, syntax);
  }
  return syntax;
}

/**
 * A chunk's tree and every label known at its end (the seeded ones and its own); with
 * `seed` false (a page of one short chunk), only the tree.
 */
function parseChunk(text: string, syntax: Syntax, labels: Labels, seed = true): { tree: Root; defined: string[] } {
  if (!seed) return { tree: fromMarkdown(text, syntax.plain), defined: [] };
  let lists: [DefinedLabels, DefinedLabels] | undefined;
  const outer = seeding;
  seeding = { labels, onLists: (...found) => (lists = found) };
  let tree: Root;
  try {
    tree = fromMarkdown(text, syntax.seeded);
  } finally {
    seeding = outer;
  }
  const defined = lists ? [...lists[0].map((l) => `L:${l}`), ...lists[1].map((l) => `F:${l}`)] : [];
  return { tree, defined };
}

/**
 * Whether the last block of a chunk was still open at its end (an unclosed fence or raw
 * HTML block, or a container holding one): parsed whole, it would run on into the next
 * chunk. Every chunk but the last ends with a blank line, which a closed block leaves out.
 */
function openAtEnd(tree: Root, text: string): boolean {
  const end = tree.children.at(-1)?.position?.end.offset;
  return end !== undefined && !/\n[ \t]*\n/.test(text.slice(end));
}

/**
 * The mdast of the whole page; `withFrontmatter` reads a leading `---` block as YAML. Pages
 * markdown-it is proven to read alike take fast-mdast.ts (without positions), the others micromark.
 */
export function parseMdast(markdown: string, withFrontmatter: boolean): Root {
  return parseMdastSaying(markdown, withFrontmatter).tree;
}

/** Which parser read a page: markdown-it where it reads the page as micromark does (fast-mdast.ts), else micromark. */
export type MarkdownParser = 'markdown-it' | 'micromark';

/** parseMdast, saying which parser read the page. */
export function parseMdastSaying(markdown: string, withFrontmatter: boolean): { tree: Root; parser: MarkdownParser } {
  withFrontmatter &&= hasFrontmatterFences(markdown);
  const fast = fastMdast(markdown, withFrontmatter);
  return fast ? { tree: fast, parser: 'markdown-it' } : { tree: parseMdastMicromark(markdown, withFrontmatter), parser: 'micromark' };
}

/** parseMdast through micromark alone, in chunks of `chunkBytes`. */
export function parseMdastMicromark(markdown: string, withFrontmatter: boolean, chunkBytes = CHUNK_BYTES): Root {
  // The frontmatter construct is concrete: once tried and failed on a leading `---`, micromark
  // starts no list or block quote for the rest of the page. Only a page with a closing fence tries it.
  withFrontmatter &&= hasFrontmatterFences(markdown);
  // Every chunk is parsed with the syntax the whole page needs (the first with frontmatter).
  let front: Syntax | undefined;
  let body: Syntax | undefined;
  const syntax = (withFrontmatter: boolean) => (withFrontmatter ? (front ??= syntaxOf(processor, markdown)) : (body ??= syntaxOf(bodyProcessor, markdown)));
  // A page shorter than a chunk is one chunk, with no label of another chunk to know.
  if (markdown.length < chunkBytes) return parseChunk(markdown, syntax(withFrontmatter), new Set(), false).tree;
  const starts = chunkStarts(markdown, chunkBytes);
  const texts = starts.map((start, i) => markdown.slice(start, starts[i + 1] ?? markdown.length));
  const labels = new Set<string>();
  const groups: { text: string; tree: Root; ownLabels: string[] }[] = [];
  for (let i = 0; i < texts.length;) {
    // chunks.ts may split where a block is still open: join the following chunks (twice
    // as many each time, so a page of such splits still parses in linear time).
    let span = 1;
    let text = texts[i]!;
    let parsed = parseChunk(text, syntax(withFrontmatter && i === 0), labels);
    while (i + span < texts.length && openAtEnd(parsed.tree, text)) {
      span = Math.min(span * 2, texts.length - i);
      text = texts.slice(i, i + span).join('');
      parsed = parseChunk(text, syntax(withFrontmatter && i === 0), labels);
    }
    const ownLabels = parsed.defined.filter((label) => !labels.has(label));
    for (const label of ownLabels) labels.add(label);
    groups.push({ text, tree: parsed.tree, ownLabels });
    i += span;
  }
  const laterLabels = new Set<string>();
  for (let i = groups.length - 1; i >= 0; i--) {
    const group = groups[i]!;
    // Labels defined further down: this group's `[...]` may be references to them.
    if (laterLabels.size > 0 && mayReference(group.text, laterLabels)) group.tree = parseChunk(group.text, syntax(withFrontmatter && i === 0), labels).tree;
    for (const label of group.ownLabels) laterLabels.add(label);
  }
  const root: Root = { type: 'root', children: [] };
  for (const group of groups) for (const node of group.tree.children) root.children.push(node);
  return root;
}

/** A `---` first line and a later `---` line (trailing spaces allowed): what YAML frontmatter needs. */
export function hasFrontmatterFences(markdown: string): boolean {
  const open = /^---[ \t]*(?:\r\n|\r|\n)/.exec(markdown);
  return open !== null && /(?:^|\r\n|\r|\n)---[ \t]*(?:\r\n|\r|\n|$)/.test(markdown.slice(open[0].length - 1));
}

/**
 * Whether `text` may hold a reference to one of `labels` (normalized as micromark does:
 * whitespace collapsed, case folded). Conservative: brackets it cannot read answer yes.
 * Labels are at most 999 characters, which also keeps the scan linear.
 */
function mayReference(text: string, labels: Set<string>): boolean {
  for (const match of text.matchAll(/\[([^\]]{0,999})\]/g)) {
    const inside = match[1]!;
    if (inside.includes('\\') || inside.includes('[')) return true;
    if (labels.has(`L:${normalizeLabel(inside)}`) || (inside.startsWith('^') && labels.has(`F:${normalizeLabel(inside.slice(1))}`))) return true;
  }
  return false;
}

/** micromark's normalizeIdentifier. */
const normalizeLabel = (label: string) => label.replace(/[\t\n\r ]+/g, ' ').replace(/^ | $/g, '').toLowerCase().toUpperCase();
