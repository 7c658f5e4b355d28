import type { StoredDocument } from './types.ts';

/** Block attributes that are code rather than text readers see: never evaluated. */
const CODE_ATTRIBUTES = new Set(['expression']);

/**
 * Evaluates a document's expressions for readers (`evaluated=true`): `{{ space.vars.NAME }}`
 * and `{{ page.vars.NAME }}` become the variables' values wherever the document holds text a
 * reader sees: text leaves of every block, fragment (captions, expandable titles and bodies)
 * and table cell, and the text attributes of blocks (tab and code titles, plain captions,
 * swagger summaries and descriptions, ...). Variables are fixed by the revision, so this is
 * deterministic: `deterministic-only` evaluates the same. Unknown variables stay as written.
 */
export function evaluateDocument(document: StoredDocument, variables: { space: Record<string, string>; page: Record<string, string> }): StoredDocument {
  const replace = (text: string) => text.replace(/\{\{\s*(space|page)\.vars\.([A-Za-z0-9_-]+)\s*\}\}/g, (match, scope: 'space' | 'page', name: string) =>
    variables[scope][name] ?? match);
  const visitData = (data: Record<string, unknown>) =>
    Object.fromEntries(Object.entries(data).map(([key, value]) => [key, typeof value === 'string' && !CODE_ATTRIBUTES.has(key) ? replace(value) : visit(value)]));
  const visit = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(visit);
    if (!node || typeof node !== 'object') return node;
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(node)) {
      if (key === 'text' && typeof value === 'string') out[key] = replace(value);
      // A block's or inline's own attributes (not the document's frontmatter).
      else if (key === 'data' && value && typeof value === 'object' && (node as { object?: unknown }).object !== 'document') out[key] = visitData(value as Record<string, unknown>);
      else out[key] = visit(value);
    }
    return out;
  };
  return visit(document) as StoredDocument;
}
