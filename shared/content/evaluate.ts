import type { StoredDocument } from './types.ts';

/**
 * Evaluates a document's expressions for readers (`evaluated=true`): `{{ space.vars.NAME }}`
 * and `{{ page.vars.NAME }}` in text become the variables' values. Variables are fixed by
 * the revision, so this is deterministic: `deterministic-only` evaluates the same.
 * Unknown variables stay as written.
 */
export function evaluateDocument(document: StoredDocument, variables: { space: Record<string, string>; page: Record<string, string> }): StoredDocument {
  const replace = (text: string) => text.replace(/\{\{\s*(space|page)\.vars\.([A-Za-z0-9_-]+)\s*\}\}/g, (match, scope: 'space' | 'page', name: string) =>
    variables[scope][name] ?? match);
  const visit = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(visit);
    if (!node || typeof node !== 'object') return node;
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(node)) out[key] = key === 'text' && typeof value === 'string' ? replace(value) : visit(value);
    return out;
  };
  return visit(document) as StoredDocument;
}
