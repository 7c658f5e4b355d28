import { diff3Merge } from 'node-diff3';
import type { StoredDocument } from '../types.ts';

interface Block {
  key?: string;
  [field: string]: unknown;
}

export type DocumentMerge =
  | { ok: true; document: StoredDocument }
  | { ok: false; blocks: { ours: string[]; theirs: string[]; base: string[] } };

/**
 * Three-way merge of two edits of one document, block by block. Blocks are matched by
 * their keys (content hashes from the markdown parser: an unchanged block keeps its key, an
 * edited one gets a new one), so edits to different blocks combine; edits that touch the
 * same stretch of blocks differently are a conflict, reported with the blocks involved.
 */
export function mergeDocuments(base: StoredDocument, ours: StoredDocument, theirs: StoredDocument): DocumentMerge {
  const byKey = new Map<string, Block>();
  const keysOf = (document: StoredDocument) => (document.nodes as Block[]).map((block) => {
    const key = block.key ?? `json:${JSON.stringify(block)}`;
    if (!byKey.has(key)) byKey.set(key, block);
    return key;
  });
  const [o, b, t] = [keysOf(ours), keysOf(base), keysOf(theirs)];
  const merged: string[] = [];
  for (const region of diff3Merge(o, b, t)) {
    if ('ok' in region && region.ok) {
      merged.push(...region.ok);
    } else if ('conflict' in region && region.conflict) {
      const { a, o: original, b: other } = region.conflict;
      return { ok: false, blocks: { ours: a, base: original, theirs: other } };
    }
  }
  return { ok: true, document: { ...ours, nodes: merged.map((key) => byKey.get(key)!) } };
}
