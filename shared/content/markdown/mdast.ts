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
 */
import type { Root } from 'mdast';
import { fromMarkdown } from 'mdast-util-from-markdown';
import type { Construct, Extension, State, TokenizeContext } from 'micromark-util-types';
import { CHUNK_BYTES, chunkStarts } from './chunks.ts';
import { bodyProcessor, processor } from './processor.ts';

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

/**
 * A flow construct that never matches: on its first try it replaces the parser's lists of
 * defined labels (`defined`, and `gfmFootnotes` of the GFM footnote syntax) with
 * DefinedLabels seeded from `labels`, and hands both lists to `onLists`.
 */
function seedDefinitions(labels: Labels, onLists: (links: DefinedLabels, footnotes: DefinedLabels) => void): Extension {
  const construct: Construct = {
    name: 'seedDefinitions',
    tokenize(this: TokenizeContext, _effects, _ok, nok): State {
      const parser = this.parser as unknown as SeededParser;
      if (!(parser.defined instanceof DefinedLabels)) {
        const links = new DefinedLabels();
        const footnotes = new DefinedLabels();
        for (const label of parser.defined) links.push(label);
        for (const label of parser.gfmFootnotes ?? []) footnotes.push(label);
        for (const label of labels) (label.startsWith('L:') ? links : footnotes).push(label.slice(2));
        parser.defined = links;
        parser.gfmFootnotes = footnotes;
        onLists(links, footnotes);
      }
      return (code) => nok(code);
    },
  };
  return { flow: { null: [construct] } };
}

/** A chunk's tree and every label known at its end (the seeded ones and its own). */
function parseChunk(text: string, withFrontmatter: boolean, labels: Labels): { tree: Root; defined: string[] } {
  const source = withFrontmatter ? processor : bodyProcessor;
  let lists: [DefinedLabels, DefinedLabels] | undefined;
  const tree = fromMarkdown(text, {
    extensions: [...(source.data('micromarkExtensions') ?? []), seedDefinitions(labels, (...found) => (lists = found))],
    mdastExtensions: source.data('fromMarkdownExtensions') ?? [],
  });
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

/** The mdast of the whole page; `withFrontmatter` reads a leading `---` block as YAML. */
export function parseMdast(markdown: string, withFrontmatter: boolean, chunkBytes = CHUNK_BYTES): Root {
  const starts = chunkStarts(markdown, chunkBytes);
  const texts = starts.map((start, i) => markdown.slice(start, starts[i + 1] ?? markdown.length));
  const labels = new Set<string>();
  const groups: { text: string; tree: Root; ownLabels: string[] }[] = [];
  for (let i = 0; i < texts.length;) {
    // chunks.ts may split where a block is still open: join the following chunks (twice
    // as many each time, so a page of such splits still parses in linear time).
    let span = 1;
    let text = texts[i]!;
    let parsed = parseChunk(text, withFrontmatter && i === 0, labels);
    while (i + span < texts.length && openAtEnd(parsed.tree, text)) {
      span = Math.min(span * 2, texts.length - i);
      text = texts.slice(i, i + span).join('');
      parsed = parseChunk(text, withFrontmatter && i === 0, labels);
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
    if (laterLabels.size > 0 && mayReference(group.text, laterLabels)) group.tree = parseChunk(group.text, withFrontmatter && i === 0, labels).tree;
    for (const label of group.ownLabels) laterLabels.add(label);
  }
  const root: Root = { type: 'root', children: [] };
  for (const group of groups) for (const node of group.tree.children) root.children.push(node);
  return root;
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
