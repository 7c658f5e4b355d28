/**
 * Deterministic block keys. A key is a hash of the block's content signature (type,
 * data and everything inside it) plus how many identical blocks came before it.
 * The same markdown always gets the same keys, and, unlike keys from positions,
 * inserting a block leaves every other block's key alone, so a block-level
 * three-way merge matches unchanged blocks across base, ours and theirs.
 * An edited block gets a new key (a replace, which the merge sees as such).
 */
import { hash as digest } from 'node:crypto';
import { isText, type DocumentNode, type ElementNode, type FragmentNode, type JSONDocument, type Leaf } from './types.ts';

/** One-shot `crypto.hash`: the same digest as a `createHash` object, without building one per block. */
function hash(value: string): string {
  return digest('sha256', value, 'base64url').slice(0, 12);
}

/** JSON with sorted object keys, so equal data always hashes equally. */
function stable(value: unknown): string {
  if (typeof value !== 'object' || value === null) return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) {
    let out = '[';
    for (let i = 0; i < value.length; i++) out += `${i > 0 ? ',' : ''}${stable(value[i])}`;
    return `${out}]`;
  }
  const record = value as Record<string, unknown>;
  // Object keys are unique, so the default order (UTF-16 code units) is the `<` order.
  const names = Object.keys(record).filter((name) => record[name] !== undefined).sort();
  let out = '{';
  for (let i = 0; i < names.length; i++) out += `${i > 0 ? ',' : ''}${JSON.stringify(names[i])}:${stable(record[names[i]!])}`;
  return `${out}}`;
}

/** `stable([[text, [[markType, markData ?? null], ...]], ...])` of a text's leaves, without building those arrays. */
function leavesSignature(leaves: Leaf[]): string {
  let out = '[';
  for (let i = 0; i < leaves.length; i++) {
    const leaf = leaves[i]!;
    out += `${i > 0 ? ',' : ''}[${JSON.stringify(leaf.text)},[`;
    for (let j = 0; j < leaf.marks.length; j++) {
      const mark = leaf.marks[j]!;
      out += `${j > 0 ? ',' : ''}[${JSON.stringify(mark.type)},${stable(mark.data ?? null)}]`;
    }
    out += ']]';
  }
  return `${out}]`;
}

type Keyed = ElementNode | FragmentNode;

/**
 * The signatures of `nodes`, joined by commas. Every block, inline and fragment inside goes to
 * `order` in document order (a node before its children, its children before its fragments),
 * and its own signature to the same index of `signatureOf`.
 */
function signatures(nodes: DocumentNode[] | undefined, order: Keyed[], signatureOf: string[]): string {
  if (!nodes) return '';
  let out = '';
  for (let i = 0; i < nodes.length; i++) {
    const node = nodes[i]!;
    let signature: string;
    if (isText(node)) signature = leavesSignature(node.leaves);
    else {
      const slot = order.push(node) - 1;
      const inner = signatures(node.nodes, order, signatureOf);
      // Fragments (an image's caption) are part of the block's content.
      let fragments = '';
      for (const fragment of node.fragments ?? []) {
        const fragmentSlot = order.push(fragment) - 1;
        const fragmentSignature = hash(`fragment|${fragment.fragment}|${signatures(fragment.nodes, order, signatureOf)}`);
        signatureOf[fragmentSlot] = fragmentSignature;
        fragments += `${fragments ? ',' : ''}${fragmentSignature}`;
      }
      const own = `${node.object}|${node.type}|${stable(node.data ?? {})}|${node.isVoid ? 1 : 0}|${inner}`;
      signature = hash(fragments ? `${own}|${fragments}` : own);
      signatureOf[slot] = signature;
    }
    out += `${i > 0 ? ',' : ''}${signature}`;
  }
  return out;
}

/**
 * Fills in every missing block/inline/fragment key (all of them with `overwrite`), in place.
 * Existing keys are kept and never handed out twice.
 */
export function assignKeys<T extends JSONDocument>(document: T, options: { overwrite?: boolean } = {}): T {
  const order: Keyed[] = [];
  const signatureOf: string[] = [];
  signatures(document.nodes, order, signatureOf);
  const used = new Set<string>();
  if (!options.overwrite) for (const node of order) if (node.key) used.add(node.key);
  const seen = new Map<string, number>();
  for (let i = 0; i < order.length; i++) {
    const node = order[i]!;
    if (node.key && !options.overwrite) continue;
    const signature = signatureOf[i]!;
    let occurrence = seen.get(signature) ?? 0;
    let key = hash(`${signature}#${occurrence}`);
    while (used.has(key)) key = hash(`${signature}#${++occurrence}`);
    seen.set(signature, occurrence + 1);
    used.add(key);
    node.key = key;
  }
  return document;
}
