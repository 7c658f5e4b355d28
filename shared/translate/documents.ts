/**
 * Translating a stored rich document: every text leaf (`{object: 'leaf', text}`) is sent to
 * the translator in one batch, except inside code blocks (code is not prose). Returns the
 * translated copy and the number of source words.
 */
import type { StoredDocument } from '../content/types.ts';
import type { TranslateRequest, Translator } from './translator.ts';

const untranslatedBlocks = new Set(['code', 'code-line']);

interface LeafRef { leaf: Record<string, unknown> }

function collectLeaves(node: unknown, out: LeafRef[]): void {
  if (Array.isArray(node)) {
    for (const child of node) collectLeaves(child, out);
    return;
  }
  if (typeof node !== 'object' || node === null) return;
  const record = node as Record<string, unknown>;
  if (record.object === 'block' && typeof record.type === 'string' && untranslatedBlocks.has(record.type)) return;
  if (record.object === 'leaf' && typeof record.text === 'string') {
    out.push({ leaf: record });
    return;
  }
  if (Array.isArray(record.nodes)) collectLeaves(record.nodes, out);
  if (Array.isArray(record.leaves)) collectLeaves(record.leaves, out);
  // Fragments (e.g. hint titles, tab contents) hold nested documents.
  if (Array.isArray(record.fragments)) collectLeaves(record.fragments, out);
}

export function countWords(text: string): number {
  return text.split(/\s+/).filter((w) => w.length > 0).length;
}

export async function translateDocument(
  document: StoredDocument,
  translator: Translator,
  request: TranslateRequest,
): Promise<{ document: StoredDocument; words: number }> {
  const copy = structuredClone(document);
  const leaves: LeafRef[] = [];
  collectLeaves(copy.nodes, leaves);
  const texts = leaves.map((l) => l.leaf.text as string);
  const words = texts.reduce((sum, t) => sum + countWords(t), 0);
  if (texts.length === 0) return { document: copy, words };
  const translated = await translator.translate(texts, request);
  if (translated.length !== texts.length) throw new Error('The translator returned a different number of texts');
  leaves.forEach((l, i) => { l.leaf.text = translated[i]; });
  return { document: copy, words };
}
