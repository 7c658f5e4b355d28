/**
 * Deterministic block keys. A key is a hash of the block's content signature (type,
 * data and everything inside it) plus how many identical blocks came before it.
 * The same markdown always gets the same keys, and, unlike keys from positions,
 * inserting a block leaves every other block's key alone, so a block-level
 * three-way merge matches unchanged blocks across base, ours and theirs.
 * An edited block gets a new key (a replace, which the merge sees as such).
 */
import { hash as digest } from 'node:crypto';
import { isText, type DocumentNode, type ElementNode, type FragmentNode, type JSONDocument } from './types.ts';

/** One-shot `crypto.hash`: the same digest as a `createHash` object, without building one per block. */
function hash(value: string): string {
  return digest('sha256', value, 'base64url').slice(0, 12);
}

/** JSON with sorted object keys, so equal data always hashes equally. */
function stable(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stable).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value).filter(([, v]) => v !== undefined).sort(([a], [b]) => (a < b ? -1 : 1));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${stable(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

type Keyed = ElementNode | FragmentNode;

function signatures(nodes: DocumentNode[] | undefined, into: Map<Keyed, string>): string[] {
  return (nodes ?? []).map((node) => {
    if (isText(node)) return stable(node.leaves.map((l) => [l.text, l.marks.map((m) => [m.type, m.data ?? null])]));
    const inner = signatures(node.nodes, into).join(',');
    // Fragments (an image's caption) are part of the block's content.
    const fragments = (node.fragments ?? []).map((fragment) => {
      const signature = hash(`fragment|${fragment.fragment}|${signatures(fragment.nodes, into).join(',')}`);
      into.set(fragment, signature);
      return signature;
    });
    const own = `${node.object}|${node.type}|${stable(node.data ?? {})}|${node.isVoid ? 1 : 0}|${inner}`;
    const signature = hash(fragments.length > 0 ? `${own}|${fragments.join(',')}` : own);
    into.set(node, signature);
    return signature;
  });
}

/**
 * Fills in every missing block/inline/fragment key (all of them with `overwrite`), in place.
 * Existing keys are kept and never handed out twice.
 */
export function assignKeys<T extends JSONDocument>(document: T, options: { overwrite?: boolean } = {}): T {
  const sigs = new Map<Keyed, string>();
  signatures(document.nodes, sigs);
  const used = new Set<string>();
  const seen = new Map<string, number>();
  const pending: Keyed[] = [];

  const visit = (node: Keyed) => {
    if (node.key && !options.overwrite) used.add(node.key);
    else pending.push(node);
  };
  const walk = (nodes: DocumentNode[] | undefined) => {
    for (const node of nodes ?? []) {
      if (isText(node)) continue;
      visit(node);
      walk(node.nodes);
      for (const fragment of node.fragments ?? []) {
        visit(fragment);
        walk(fragment.nodes);
      }
    }
  };
  walk(document.nodes);

  for (const node of pending) {
    const signature = sigs.get(node)!;
    let occurrence = seen.get(signature) ?? 0;
    let key = hash(`${signature}#${occurrence}`);
    while (used.has(key)) key = hash(`${signature}#${++occurrence}`);
    seen.set(signature, occurrence + 1);
    used.add(key);
    node.key = key;
  }
  return document;
}
