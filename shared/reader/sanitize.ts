import type { ElementContent, Nodes, Root, RootContent } from 'hast';
import type { Raw } from 'mdast-util-to-hast';
import { fromHtml } from 'hast-util-from-html';
import { sanitize } from 'hast-util-sanitize';
import { toHtml } from 'hast-util-to-html';
import { MATHML_SCHEMA, READER_SCHEMA } from './schema.ts';

export { safeHref, safeLinkTarget } from './urls.ts';

/**
 * The one way untrusted content becomes HTML. A tree may hold `raw` nodes (HTML written by
 * an author inside a document); it is serialized with them and parsed again as one HTML
 * fragment, the way a browser would (so `<details>` opened in one block and closed in
 * another nest as written), then hast-util-sanitize keeps only READER_SCHEMA.
 */
export function sanitizeNodes(nodes: RootContent[]): ElementContent[] {
  const html = toHtml({ type: 'root', children: nodes }, { allowDangerousHtml: true });
  const clean = sanitize(fromHtml(html, { fragment: true }), READER_SCHEMA) as Root;
  return clean.children as ElementContent[];
}

/** MathML (KaTeX's output) kept to MATHML_SCHEMA: its `<math>` element, if any survives. */
export function sanitizeMathml(html: string): ElementContent | undefined {
  const clean = sanitize(fromHtml(html, { fragment: true }), MATHML_SCHEMA) as Root;
  return clean.children.find((node): node is ElementContent => node.type === 'element' && node.tagName === 'math');
}

/** A raw HTML node: serialized verbatim, then parsed and sanitized by sanitizeNodes. */
export const raw = (value: string): Raw => ({ type: 'raw', value });

/** Serializes a tree the service built itself (its values are escaped by hast-util-to-html). */
export function treeHtml(node: Nodes): string {
  return toHtml(node);
}
