/** Plain text of blocks, for search sections. */
import { captionText } from './captions.ts';
import { plainText } from './inline.ts';
import { isElement, type ElementNode } from './types.ts';

/** Text-bearing blocks give their text; containers give their children's, one per line. */
export function blockText(node: ElementNode): string {
  const data = node.data ?? {};
  switch (node.type) {
    case 'paragraph':
    case 'code-line':
    case 'table-cell':
      return plainText(node.nodes);
    case 'code':
      return node.nodes.filter(isElement).map(blockText).join('\n');
    case 'table-row':
      return node.nodes.filter(isElement).map(blockText).join(' ');
    case 'image':
      return [data.alt, captionText(node)].filter((v) => typeof v === 'string' && v).join(' ');
    case 'embed':
    case 'file':
      return typeof data.caption === 'string' ? data.caption : '';
    case 'tabs-item': {
      const title = typeof data.title === 'string' ? data.title : '';
      return [title, ...node.nodes.filter(isElement).map(blockText)].filter(Boolean).join('\n');
    }
    default:
      return node.nodes.filter(isElement).map(blockText).filter(Boolean).join('\n');
  }
}
