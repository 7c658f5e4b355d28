/** Plain text of blocks, for search sections (and the text search indexes). */
import { captionText } from './captions.ts';
import { plainText } from './inline.ts';
import { isElement, type ElementNode } from './types.ts';

/** Text-bearing blocks give their text; containers give their children's, one per line. */
export function blockText(node: ElementNode): string {
  const data = node.data ?? {};
  switch (node.type) {
    case 'paragraph':
    case 'code-line':
      return plainText(node.nodes);
    case 'table-cell':
      // A rich cell holds blocks (paragraphs, code), a markdown one inline text.
      return node.nodes.some((n) => isElement(n) && n.object === 'block') ? node.nodes.filter(isElement).map(blockText).join('\n') : plainText(node.nodes);
    case 'code':
      return node.nodes.filter(isElement).map(blockText).join('\n');
    case 'table-row':
      return node.nodes.filter(isElement).map(blockText).join(' ');
    case 'image':
      return [data.alt, captionText(node)].filter((v) => typeof v === 'string' && v).join(' ');
    case 'embed':
    case 'file':
      return captionText(node) || (typeof data.caption === 'string' ? data.caption : '');
    case 'swagger':
    case 'openapi-operation':
    case 'openapi-schemas':
    case 'openapi-webhook':
    case 'swagger-parameter':
    case 'swagger-response':
    case 'update':
    case 'prompt': {
      // What the block shows of its data (method, path, summary, parameter name, date, ...), then its content.
      const shown = ['method', 'path', 'summary', 'name', 'status', 'description', 'date'].map((k) => data[k]).filter((v) => typeof v === 'string' && v);
      return [shown.join(' '), ...node.nodes.filter(isElement).map(blockText)].filter(Boolean).join('\n');
    }
    case 'tabs-item': {
      const title = typeof data.title === 'string' ? data.title : '';
      return [title, ...node.nodes.filter(isElement).map(blockText)].filter(Boolean).join('\n');
    }
    default: {
      // Fragments (an expandable's title and body) are content too.
      const fragments = (node.fragments ?? []).flatMap((f) => f.nodes.filter(isElement));
      return [...node.nodes.filter(isElement), ...fragments].map(blockText).filter(Boolean).join('\n');
    }
  }
}
