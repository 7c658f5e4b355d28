import { createHash } from 'node:crypto';
import { diff3Merge, diffIndices } from 'node-diff3';
import type { StoredDocument } from '../types.ts';

interface Block {
  key?: string;
  [field: string]: unknown;
}

export type DocumentMerge =
  | { ok: true; document: StoredDocument }
  | { ok: false; blocks: { ours: string[]; theirs: string[]; base: string[] } };

/**
 * Three-way merge of two edits of one document, block by block. Blocks are matched by their
 * content: their key (a content hash from the markdown parser: an edited block gets a new
 * one) and their JSON, since a rich document posted by a client may keep a block's key
 * through an edit, and an edit must never be taken for an unchanged block. Edits to
 * different blocks combine; edits that touch the same blocks differently, or insert
 * different blocks at the same place, are a conflict, reported with the blocks' keys.
 */
export function mergeDocuments(base: StoredDocument, ours: StoredDocument, theirs: StoredDocument): DocumentMerge {
  const byIdentity = new Map<string, Block>();
  const identitiesOf = (document: StoredDocument) => (document.nodes as Block[]).map((block) => {
    // Equal JSON is an equal block: unchanged blocks are copied as stored, in one property order.
    const identity = `${block.key ?? ''}|${createHash('sha256').update(JSON.stringify(block)).digest('base64url')}`;
    if (!byIdentity.has(identity)) byIdentity.set(identity, block);
    return identity;
  });
  const [o, b, t] = [identitiesOf(ours), identitiesOf(base), identitiesOf(theirs)];
  const keys = (identities: string[]) => identities.map((identity) => byIdentity.get(identity)!.key ?? identity.split('|')[1]!);
  const merged: string[] = [];
  for (const region of diff3Merge(o, b, t)) {
    if ('ok' in region && region.ok) {
      merged.push(...region.ok);
    } else if ('conflict' in region && region.conflict) {
      const { a, o: original, b: other } = region.conflict;
      const combined = combineDisjoint(a, original, other);
      if (!combined) return { ok: false, blocks: { ours: keys(a), base: keys(original), theirs: keys(other) } };
      merged.push(...combined);
    }
  }
  return { ok: true, document: { ...ours, nodes: merged.map((identity) => byIdentity.get(identity)!) } };
}

/**
 * diff3 calls edits of neighbouring lines a conflict, as line-based merges do; neighbouring
 * blocks are separate paragraphs, which two writers edit independently. Applies both sides'
 * changes of a conflict region when they touch different base blocks; undefined when they
 * overlap, or both insert at the same place (no order to choose).
 */
function combineDisjoint(ours: string[], base: string[], theirs: string[]): string[] | undefined {
  const hunks = [ours, theirs].flatMap((side) => diffIndices(base, side).map((h) => ({
    start: h.buffer1[0], end: h.buffer1[0] + h.buffer1[1], blocks: side.slice(h.buffer2[0], h.buffer2[0] + h.buffer2[1]),
  })));
  // At one place, an insertion comes before a change of the blocks that follow it.
  hunks.sort((x, y) => x.start - y.start || (x.end - x.start) - (y.end - y.start));
  const out: string[] = [];
  let previous: (typeof hunks)[number] | undefined;
  for (const hunk of hunks) {
    if (previous) {
      const sameChange = hunk.start === previous.start && hunk.end === previous.end && hunk.blocks.join() === previous.blocks.join();
      if (sameChange) continue;
      const insertedAtOnePlace = hunk.start === hunk.end && previous.start === previous.end && hunk.start === previous.start;
      if (hunk.start < previous.end || insertedAtOnePlace) return undefined;
    }
    out.push(...base.slice(previous?.end ?? 0, hunk.start), ...hunk.blocks);
    previous = hunk;
  }
  return [...out, ...base.slice(previous?.end ?? 0)];
}
