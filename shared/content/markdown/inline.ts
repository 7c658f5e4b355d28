/**
 * Phrasing content <-> GitBook text (leaves with flat marks) and inlines.
 * Markdown nests emphasis; the document flattens it into marks per leaf. Going
 * back, each run of leaves is re-nested by opening the mark that spans longest
 * first, so `**a _b_**` survives the trip unchanged.
 */
import type { Definition, PhrasingContent } from 'mdast';
import { captionFragment, captionText } from './captions.ts';
import { htmlRefsData, printedHtml } from './html-images.ts';
import { fileRefFromSource, refFromTarget, targetOf } from './refs.ts';
import { element, isText, type DocumentNode, type ElementNode, type Leaf, type Mark, type TextNode } from './types.ts';

/** Link and image reference definitions, resolved at parse time into inline links. */
export type Definitions = Map<string, Definition>;

const MARK_ORDER = ['bold', 'italic', 'strikethrough', 'code'];
const MDAST_MARK: Record<string, 'strong' | 'emphasis' | 'delete'> = { bold: 'strong', italic: 'emphasis', strikethrough: 'delete' };

function markId(mark: Mark): string {
  return mark.data ? `${mark.type}:${JSON.stringify(mark.data)}` : mark.type;
}

function withMark(marks: Mark[], type: string): Mark[] {
  if (marks.some((m) => m.type === type)) return marks;
  return [...marks, { object: 'mark' as const, type }].sort(
    (a, b) => MARK_ORDER.indexOf(a.type) - MARK_ORDER.indexOf(b.type),
  );
}

function sameMarks(a: Mark[], b: Mark[]): boolean {
  return a.length === b.length && a.every((m, i) => markId(m) === markId(b[i]!));
}

/** Adjacent leaves with equal marks merge; consecutive leaves share one text node. */
function pushLeaf(out: DocumentNode[], leaf: Leaf): void {
  if (leaf.text === '') return;
  const last = out[out.length - 1];
  if (!last || !isText(last)) {
    out.push({ object: 'text', leaves: [leaf] });
    return;
  }
  const tail = last.leaves[last.leaves.length - 1]!;
  if (sameMarks(tail.marks, leaf.marks)) tail.text += leaf.text;
  else last.leaves.push(leaf);
}

function leaf(text: string, marks: Mark[]): Leaf {
  return { object: 'leaf', text, marks };
}

function label(node: { identifier: string }): string {
  return node.identifier.toLowerCase();
}

export function inlinesFromMdast(nodes: PhrasingContent[], definitions: Definitions, marks: Mark[] = []): DocumentNode[] {
  const out: DocumentNode[] = [];
  const walk = (children: PhrasingContent[], active: Mark[]) => {
    for (const node of children) {
      switch (node.type) {
        case 'text':
          // A soft line break is only source wrapping: it reads as a space, as when rendered.
          pushLeaf(out, leaf(node.value.replace(/\n/g, ' '), active));
          break;
        case 'break':
          // A hard break is GitBook's line break: "\n" in the text (printed back as `\`).
          pushLeaf(out, leaf('\n', active));
          break;
        case 'inlineMath':
          // `$$x$$` in text: the public model's inline math.
          out.push(element('inline', 'inline-math', [], { formula: node.value }, true));
          break;
        case 'inlineCode':
          pushLeaf(out, leaf(node.value.replace(/\n/g, ' '), withMark(active, 'code')));
          break;
        case 'emphasis':
          walk(node.children, withMark(active, 'italic'));
          break;
        case 'strong':
          walk(node.children, withMark(active, 'bold'));
          break;
        case 'delete':
          walk(node.children, withMark(active, 'strikethrough'));
          break;
        case 'link':
          out.push(link(node.url, node.children, definitions, active, node.title));
          break;
        case 'linkReference': {
          const def = definitions.get(label(node));
          if (def) out.push(link(def.url, node.children, definitions, active, def.title));
          else walk(node.children, active);
          break;
        }
        case 'image':
          out.push(inlineImage(node.url, node.alt, node.title));
          break;
        case 'imageReference': {
          const def = definitions.get(label(node));
          out.push(inlineImage(def?.url ?? '', node.alt, def?.title));
          break;
        }
        case 'html':
          out.push(element('inline', 'html', [], { html: node.value, ...htmlRefsData(node.value) }, true));
          break;
        case 'footnoteReference':
          out.push(element('inline', 'markdown', [], { markdown: `[^${node.label ?? node.identifier}]` }, true));
          break;
        default:
          break;
      }
    }
  };
  walk(nodes, marks);
  return out;
}

/** A link keeps its title (`"mention"` marks GitBook's mentions of pages and anchors). */
function link(url: string, children: PhrasingContent[], definitions: Definitions, marks: Mark[], title?: string | null): ElementNode {
  return element('inline', 'link', inlinesFromMdast(children, definitions, marks), { ref: refFromTarget(url), ...(title ? { title } : {}) });
}

/** Image data shared by inline images and image blocks. */
function imageData(src: string, alt?: string | null): Record<string, unknown> {
  const data: Record<string, unknown> = { ref: fileRefFromSource(src) };
  if (alt) data.alt = alt;
  return data;
}

/** An inline image keeps markdown's title as `data.caption` (DocumentInlineImage). */
function inlineImage(src: string, alt?: string | null, caption?: string | null): ElementNode {
  const data = imageData(src, alt);
  if (caption) data.caption = caption;
  return element('inline', 'inline-image', [], data, true);
}

/**
 * An image block (DocumentBlockImage): the caption (markdown's title, a figcaption) is a
 * caption fragment, never `data.caption`. `nodes` stays empty, as on every void block.
 */
export function imageBlock(src: string, alt?: string | null, caption?: string | null): ElementNode {
  const node = element('block', 'image', [], imageData(src, alt));
  node.fragments = caption ? [captionFragment(caption)] : [];
  node.isVoid = true;
  return node;
}

/** The block holding image blocks (DocumentBlockImages, which states `isVoid: false`). */
export function imagesBlock(images: ElementNode[]): ElementNode {
  const node = element('block', 'images', images, {});
  node.isVoid = false;
  return node;
}

type Segment = { leaf: Leaf } | { inline: ElementNode };

function flatten(nodes: DocumentNode[]): Segment[] {
  return nodes.flatMap((node): Segment[] => (isText(node) ? node.leaves.map((l) => ({ leaf: l })) : [{ inline: node }]));
}

/** Line breaks at the very start or end of a block have no markdown form: drop them. */
function trimBreaks(segments: Segment[]): Segment[] {
  const out = [...segments];
  const trim = (index: number, pattern: RegExp) => {
    const segment = out[index];
    if (!segment || !('leaf' in segment)) return false;
    const text = segment.leaf.text.replace(pattern, '');
    if (text === '') {
      out.splice(index, 1);
      return true;
    }
    out[index] = { leaf: { ...segment.leaf, text } };
    return false;
  };
  while (trim(0, /^\n+/));
  while (trim(out.length - 1, /\n+$/));
  return out;
}

/** A leaf's text with its "\n"s as hard breaks. */
function textWithBreaks(value: string): PhrasingContent[] {
  return value.split('\n').flatMap((part, i): PhrasingContent[] => {
    const pieces: PhrasingContent[] = i > 0 ? [{ type: 'break' }] : [];
    if (part) pieces.push({ type: 'text', value: part });
    return pieces;
  });
}

/** Re-nest a run of leaves: the mark spanning the most leaves from here opens first. */
function nestLeaves(leaves: Leaf[], open: Set<string>): PhrasingContent[] {
  const out: PhrasingContent[] = [];
  let i = 0;
  while (i < leaves.length) {
    const current = leaves[i]!;
    const pending = current.marks.filter((m) => MDAST_MARK[m.type] && !open.has(markId(m)));
    if (pending.length === 0) {
      const isCode = current.marks.some((m) => m.type === 'code');
      if (isCode) out.push({ type: 'inlineCode', value: current.text });
      else out.push(...textWithBreaks(current.text));
      i++;
      continue;
    }
    const span = (mark: Mark) => {
      let j = i;
      while (j < leaves.length && leaves[j]!.marks.some((m) => markId(m) === markId(mark))) j++;
      return j - i;
    };
    let best = pending[0]!;
    for (const mark of pending) if (span(mark) > span(best)) best = mark;
    const end = i + span(best);
    const children = nestLeaves(leaves.slice(i, end), new Set([...open, markId(best)]));
    out.push({ type: MDAST_MARK[best.type]!, children } as PhrasingContent);
    i = end;
  }
  return out;
}

/** Inline content of a block (or of a link, with `trim` off) as mdast phrasing. */
export function inlinesToMdast(nodes: DocumentNode[], trim = true): PhrasingContent[] {
  const out: PhrasingContent[] = [];
  let run: Leaf[] = [];
  const flush = () => {
    out.push(...nestLeaves(run, new Set()));
    run = [];
  };
  const segments = trim ? trimBreaks(flatten(nodes)) : flatten(nodes);
  for (const segment of segments) {
    if ('leaf' in segment) {
      run.push(segment.leaf);
      continue;
    }
    flush();
    out.push(...inlineToMdast(segment.inline));
  }
  flush();
  return out;
}

function inlineToMdast(node: ElementNode): PhrasingContent[] {
  const data = node.data ?? {};
  switch (node.type) {
    case 'link':
      return [{ type: 'link', url: targetOf(data.ref), title: typeof data.title === 'string' && data.title ? data.title : null, children: inlinesToMdast(node.nodes, false) }];
    case 'inline-image':
      return [imageToMdast(node)];
    case 'inline-math':
      return [{ type: 'inlineMath', value: String(data.formula ?? '') }];
    case 'html':
      return [{ type: 'html', value: printedHtml(String(data.html ?? ''), data, targetOf) }];
    case 'markdown':
      return [{ type: 'html', value: String(data.markdown ?? '') }];
    case 'emoji':
      // GitBook stores the code point in hex.
      return typeof data.code === 'string' && /^[0-9a-f]+$/i.test(data.code)
        ? [{ type: 'text', value: String.fromCodePoint(parseInt(data.code, 16)) }]
        : [];
    default:
      return inlinesToMdast(node.nodes, false);
  }
}

/** An image as markdown: the caption (captionText) is the title. */
export function imageToMdast(node: ElementNode): PhrasingContent {
  const data = node.data ?? {};
  return { type: 'image', url: targetOf(data.ref), alt: typeof data.alt === 'string' ? data.alt : '', title: captionText(node) || null };
}

/** Plain text of inline content (headings, captions, search). */
export function plainText(nodes: DocumentNode[]): string {
  return nodes.map((node) => (isText(node) ? node.leaves.map((l) => l.text).join('') : plainText(node.nodes))).join('');
}

export function textNode(text: string): TextNode {
  return { object: 'text', leaves: [leaf(text, [])] };
}
