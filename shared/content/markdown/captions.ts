/**
 * Image captions, as the public document has them: not in `data` but in a `caption`
 * fragment of the image block holding paragraphs (DocumentBlockImage.fragments).
 * Markdown captions are plain text (a title, a figcaption), so the fragment holds one
 * paragraph with one text leaf. Readers of captions (print, search, reader, PDF) go
 * through captionText, which also reads `data.caption` where the public document keeps
 * it (inline images, embeds and files) and in documents stored before fragments.
 */
import { block, type FragmentNode } from './types.ts';

export function captionFragment(text: string): FragmentNode {
  return {
    object: 'fragment',
    key: '',
    fragment: 'caption',
    nodes: [block('paragraph', [{ object: 'text', leaves: [{ object: 'leaf', text, marks: [] }] }], {})],
  };
}

type Loose = { object?: unknown; leaves?: unknown; nodes?: unknown };

function plain(nodes: unknown): string {
  if (!Array.isArray(nodes)) return '';
  return (nodes as Loose[])
    .map((node) => {
      if (!node || typeof node !== 'object') return '';
      if (Array.isArray(node.leaves)) return (node.leaves as { text?: unknown }[]).map((l) => (typeof l?.text === 'string' ? l.text : '')).join('');
      return plain(node.nodes);
    })
    .join('');
}

/** The caption of an image (or embed, file, inline image) as plain text; '' when none. */
export function captionText(node: { data?: Record<string, unknown>; fragments?: unknown }): string {
  const fragments = Array.isArray(node.fragments) ? (node.fragments as { fragment?: unknown; nodes?: unknown }[]) : [];
  const caption = fragments.find((f) => f && typeof f === 'object' && f.fragment === 'caption');
  if (caption) {
    const blocks = Array.isArray(caption.nodes) ? (caption.nodes as Loose[]) : [];
    return blocks.map((b) => plain(b?.nodes)).filter(Boolean).join('\n');
  }
  const legacy = node.data?.caption;
  return typeof legacy === 'string' ? legacy : '';
}
