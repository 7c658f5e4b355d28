/**
 * Inline content <-> the markup a translation provider receives. A run of inline nodes
 * (text leaves with marks, links, inline images, ...) becomes one HTML fragment:
 *   - bold / italic / strikethrough / underline marks are `<b>`, `<i>`, `<s>`, `<u>`, any
 *     other mark a `<span data-m="n">`, so the provider moves them with the words they cover;
 *   - a link is `<a data-i="n">...</a>` (its target stays here, only its text is sent);
 *   - inline code, inline images, emoji, inline HTML, URLs, expressions and block markup are
 *     an empty `<x data-i="n"></x>` placeholder: never sent, put back from the source.
 * The provider's answer is parsed with a real HTML parser (hast-util-from-html), so
 * reordered, re-cased or re-spaced tags still map back; placeholders a provider dropped are
 * appended at the end, so no code or URL is ever lost.
 */
import { fromHtml } from 'hast-util-from-html';
import { toHtml } from 'hast-util-to-html';
import { h } from 'hastscript';
import type { Element, ElementContent } from 'hast';
import { countWords, hasProse, protectedPieces } from './protect.ts';

export interface Mark { object?: string; type: string; data?: Record<string, unknown> }
export interface Leaf { object: 'leaf'; text: string; marks?: Mark[] }
export interface InlineNode {
  object?: string;
  type?: string;
  data?: Record<string, unknown>;
  nodes?: InlineNode[];
  leaves?: Leaf[];
  [key: string]: unknown;
}

export interface Segment {
  /** What the provider receives. */
  html: string;
  /** Source words in the prose parts (what is counted as sent). */
  words: number;
  /** False when there is nothing to translate (only placeholders or blanks): not sent. */
  translatable: boolean;
  /** Source objects the placeholders (`data-i`) and custom marks (`data-m`) stand for. */
  kept: unknown[];
  /** The source nodes, returned unchanged when the segment is not translated. */
  source: InlineNode[];
}

const MARK_TAGS: Record<string, string> = { bold: 'b', italic: 'i', strikethrough: 's', underline: 'u' };
const TAG_MARKS: Record<string, string> = { b: 'bold', strong: 'bold', i: 'italic', em: 'italic', s: 'strikethrough', del: 'strikethrough', u: 'underline' };

/** The segment for a run of inline nodes, built as a hast tree and serialized by hast-util-to-html. */
export function toSegment(nodes: InlineNode[]): Segment {
  const kept: unknown[] = [];
  let prose = '';
  const keep = (value: unknown) => kept.push(value) - 1;
  const placeholder = (value: unknown): Element => h('x', { dataI: keep(value) });

  const leafContent = (leaf: Leaf): ElementContent[] => {
    const marks = leaf.marks ?? [];
    if (marks.some((m) => m.type === 'code')) return [placeholder(leaf)];
    let content: ElementContent[] = [];
    for (const piece of protectedPieces(leaf.text)) {
      if (piece.kept) content.push(placeholder({ object: 'leaf', text: piece.text, marks }));
      else {
        content.push({ type: 'text', value: piece.text });
        prose += `${piece.text} `;
      }
    }
    for (const mark of [...marks].reverse()) {
      const tag = MARK_TAGS[mark.type];
      content = [tag ? h(tag, content) : h('span', { dataM: keep(mark) }, content)];
    }
    return content;
  };

  const nodesContent = (list: InlineNode[]): ElementContent[] => list.flatMap((node): ElementContent[] => {
    if (node.object === 'text' || Array.isArray(node.leaves)) return (node.leaves ?? []).flatMap(leafContent);
    if (node.type === 'link') return [h('a', { dataI: keep({ ...node, nodes: [] }) }, nodesContent(node.nodes ?? []))];
    return [placeholder(node)];
  });

  const html = toHtml({ type: 'root', children: nodesContent(nodes) });
  return { html, words: countWords(prose), translatable: hasProse(prose), kept, source: nodes };
}

/** The inline nodes of a translated segment. */
export function fromSegment(segment: Segment, translated: string): InlineNode[] {
  const tree = fromHtml(translated, { fragment: true });
  const used = new Set<number>();
  const out: InlineNode[] = [];

  const keptAt = (value: unknown): unknown => {
    const index = Number(Array.isArray(value) ? value[0] : value);
    if (!Number.isInteger(index) || index < 0 || index >= segment.kept.length || used.has(index)) return undefined;
    used.add(index);
    return structuredClone(segment.kept[index]);
  };

  const pushLeaf = (sink: InlineNode[], leaf: Leaf) => {
    if (leaf.text === '') return;
    const last = sink[sink.length - 1];
    if (last?.object === 'text' && Array.isArray(last.leaves)) {
      const previous = last.leaves[last.leaves.length - 1];
      if (previous && sameMarks(previous.marks ?? [], leaf.marks ?? [])) previous.text += leaf.text;
      else last.leaves.push(leaf);
      return;
    }
    sink.push({ object: 'text', leaves: [leaf] });
  };

  const walk = (children: ElementContent[], marks: Mark[], sink: InlineNode[]) => {
    for (const child of children) {
      if (child.type === 'text') {
        pushLeaf(sink, { object: 'leaf', text: child.value, marks: [...marks] });
        continue;
      }
      if (child.type !== 'element') continue;
      const props = child.properties ?? {};
      if (child.tagName === 'x') {
        const original = keptAt(props.dataI) as InlineNode | Leaf | undefined;
        if (original && (original as Leaf).object === 'leaf') pushLeaf(sink, original as Leaf);
        else if (original) sink.push(original as InlineNode);
        continue;
      }
      if (child.tagName === 'a') {
        const link = keptAt(props.dataI) as InlineNode | undefined;
        if (link) {
          link.nodes = [];
          walk(child.children, marks, link.nodes);
          if (link.nodes.length === 0) link.nodes.push({ object: 'text', leaves: [{ object: 'leaf', text: '', marks: [] }] });
          sink.push(link);
          continue;
        }
      }
      let mark: Mark | undefined;
      if (props.dataM !== undefined) mark = keptAt(props.dataM) as Mark | undefined;
      else if (TAG_MARKS[child.tagName]) mark = markOf(segment, TAG_MARKS[child.tagName]!);
      walk(child.children, mark && !marks.some((m) => m.type === mark.type) ? [...marks, mark] : marks, sink);
    }
  };

  walk(tree.children as ElementContent[], [], out);
  // A placeholder the provider dropped is appended rather than lost.
  segment.kept.forEach((value, index) => {
    if (used.has(index)) return;
    const original = structuredClone(value) as InlineNode & Leaf;
    if (original.object === 'leaf') pushLeaf(out, original);
    else if (original.object === 'inline' || original.object === 'text') out.push(original);
  });
  return out;
}

/** The source's own mark object of that type (keeps its `object`/`data`), or a plain one. */
function markOf(segment: Segment, type: string): Mark {
  const find = (nodes: InlineNode[]): Mark | undefined => {
    for (const node of nodes) {
      for (const leaf of node.leaves ?? []) {
        const mark = leaf.marks?.find((m) => m.type === type);
        if (mark) return mark;
      }
      const nested = find(node.nodes ?? []);
      if (nested) return nested;
    }
    return undefined;
  };
  return structuredClone(find(segment.source) ?? { object: 'mark', type, data: {} });
}

function sameMarks(a: Mark[], b: Mark[]): boolean {
  return a.length === b.length && a.every((m, i) => m.type === b[i]!.type && JSON.stringify(m.data ?? {}) === JSON.stringify(b[i]!.data ?? {}));
}
