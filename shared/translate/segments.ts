/**
 * A stored document cut into translation segments that keep its structure: every block
 * whose children are inline content (paragraphs, headings, list items, table cells, hint
 * and tab contents, ...) gives one segment of its inline nodes (shared/translate/markup.ts).
 * Blocks that are not prose are never entered, so nothing in them is sent: code, raw HTML,
 * markdown, math, embeds, files, images, content references and reusable-content blocks.
 * A block whose markup is longer than a provider request allows is cut between sentences
 * into several segments. `rebuild` puts the translations back into a copy of the document.
 */
import { toSegment, fromSegment, type InlineNode, type Leaf, type Segment } from './markup.ts';

const NOT_PROSE = new Set([
  'code', 'code-line', 'html', 'markdown', 'math', 'embed', 'file', 'image', 'images', 'content-ref',
  'reusable-content', 'openapi', 'integration', 'drawing',
]);

/** Markup bytes per segment: under Amazon Translate's 10,000-byte TranslateText limit. */
export const MAX_SEGMENT_BYTES = 9_000;

interface Slot {
  /** The block (or document) whose `nodes` the segments replace. */
  owner: { nodes: unknown[] };
  segments: Segment[];
}

export interface SegmentedDocument<T> {
  segments: Segment[];
  /** A copy of the document with translations[i] in place of segments[i] (untranslatable segments kept). */
  rebuild(translations: (string | undefined)[]): T;
}

const isInline = (node: InlineNode) => node.object === 'text' || node.object === 'inline' || Array.isArray(node.leaves);

export function segmentDocument<T extends { nodes: unknown[] }>(document: T, maxBytes = MAX_SEGMENT_BYTES): SegmentedDocument<T> {
  const copy = structuredClone(document);
  const slots: Slot[] = [];
  const visit = (node: InlineNode & { nodes?: InlineNode[]; fragments?: InlineNode[] }) => {
    if (node.object === 'block' && typeof node.type === 'string' && NOT_PROSE.has(node.type)) return;
    const children = node.nodes ?? [];
    if (children.length > 0 && children.some(isInline)) {
      slots.push({ owner: node as { nodes: unknown[] }, segments: splitSegments(children, maxBytes) });
    } else {
      for (const child of children) visit(child);
    }
    // Fragments (hint titles, ...) hold nested documents.
    for (const fragment of node.fragments ?? []) visit(fragment);
  };
  visit(copy as unknown as InlineNode);
  const segments = slots.flatMap((s) => s.segments);
  return {
    segments,
    rebuild(translations) {
      let index = 0;
      for (const slot of slots) {
        const nodes: InlineNode[] = [];
        for (const segment of slot.segments) {
          const translated = translations[index++];
          nodes.push(...(translated === undefined || !segment.translatable ? segment.source : fromSegment(segment, translated)));
        }
        slot.owner.nodes = nodes.length > 0 ? nodes : [{ object: 'text', leaves: [{ object: 'leaf', text: '', marks: [] }] }];
      }
      return copy;
    },
  };
}

/** One segment, or several when the markup is too long: cut between sentences, then between words. */
function splitSegments(nodes: InlineNode[], maxBytes: number): Segment[] {
  const whole = toSegment(nodes);
  if (bytes(whole.html) <= maxBytes) return [whole];
  const units = nodes.flatMap((node) => (Array.isArray(node.leaves) ? splitText(node, maxBytes) : [node]));
  const segments: Segment[] = [];
  let group: InlineNode[] = [];
  for (const unit of units) {
    if (group.length > 0 && bytes(toSegment([...group, unit]).html) > maxBytes) {
      segments.push(toSegment(group));
      group = [];
    }
    group.push(unit);
  }
  if (group.length > 0) segments.push(toSegment(group));
  return segments;
}

/** A text node as one text node per sentence (per word chunk for sentences still too long). */
function splitText(node: InlineNode, maxBytes: number): InlineNode[] {
  const sentences = new Intl.Segmenter(undefined, { granularity: 'sentence' });
  const out: InlineNode[] = [];
  for (const leaf of node.leaves ?? []) {
    for (const { segment } of sentences.segment(leaf.text)) {
      for (const piece of chunkWords(segment, Math.floor(maxBytes / 4))) {
        out.push({ object: 'text', leaves: [{ ...leaf, text: piece } as Leaf] });
      }
    }
  }
  return out;
}

function chunkWords(text: string, maxChars: number): string[] {
  if (text.length <= maxChars) return [text];
  const chunks: string[] = [];
  let current = '';
  for (const word of text.split(/(?<=\s)/)) {
    if (current.length + word.length > maxChars && current) {
      chunks.push(current);
      current = '';
    }
    current += word;
  }
  if (current) chunks.push(current);
  return chunks.flatMap((c) => (c.length > maxChars ? c.match(new RegExp(`[\\s\\S]{1,${maxChars}}`, 'gu'))! : [c]));
}

const bytes = (text: string) => Buffer.byteLength(text, 'utf8');
