/**
 * Every link target in a document, for link checking, with the key of the nearest
 * block it sits in. `target` is the markdown target as written (`other.md#x`,
 * `.gitbook/assets/a.png`, `https://...`); `kind` says what to check it against.
 */
import { htmlRefsOf } from './html-images.ts';
import { linkKind, targetOf } from './refs.ts';
import { isElement, type DocumentNode, type JSONDocument } from './types.ts';

export interface DocumentLink {
  target: string;
  kind: 'url' | 'page' | 'file' | 'anchor';
  blockKey: string;
}

/** Node types whose data.ref is a link; embeds carry a plain url. */
const REF_TYPES = new Set(['link', 'inline-image', 'image', 'content-ref', 'file']);

export function documentLinks(document: JSONDocument): DocumentLink[] {
  const links: DocumentLink[] = [];
  const walk = (nodes: DocumentNode[], blockKey: string) => {
    for (const node of nodes) {
      if (!isElement(node)) continue;
      const key = node.object === 'block' ? node.key : blockKey;
      const data = node.data ?? {};
      if (REF_TYPES.has(node.type)) {
        const kind = linkKind(data.ref);
        if (kind) links.push({ target: targetOf(data.ref), kind, blockKey: key });
      } else if (node.type === 'embed' && typeof data.url === 'string') {
        links.push({ target: data.url, kind: 'url', blockKey: key });
      } else if (node.type === 'html') {
        // Images and links of raw HTML (html-images.ts) are checked like markdown images and links.
        for (const ref of htmlRefsOf(data)) {
          const kind = linkKind(ref);
          if (kind) links.push({ target: targetOf(ref), kind, blockKey: key });
        }
      }
      walk(node.nodes ?? [], key);
      for (const fragment of node.fragments ?? []) walk(fragment.nodes ?? [], key);
    }
  };
  walk(document.nodes, '');
  return links;
}
