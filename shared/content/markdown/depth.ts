/**
 * Nesting guard. Parsing, conversion and printing recurse once per level, so
 * absurd nesting (thousands of `>` or list levels, from a bug or an attack) would
 * overflow the stack. Real pages stay far below the limit; past it we fail clearly.
 */

import { MarkdownNestingError } from './limits.ts';

/** Printing bound of stored documents (input is held to tighter limits: limits.ts). */
export const MAX_DEPTH = 256;

export { MarkdownNestingError };

type Tree = { children?: unknown[]; nodes?: unknown[]; fragments?: unknown[] };

/** Iterative, so the check itself cannot overflow. Works on mdast (children) and documents (nodes, fragments). */
export function assertDepth(root: Tree): void {
  const stack: [Tree, number][] = [[root, 0]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    if (depth > MAX_DEPTH) throw new MarkdownNestingError(MAX_DEPTH);
    const fragments = Array.isArray(node.fragments) ? node.fragments : [];
    for (const child of [...(node.children ?? node.nodes ?? []), ...fragments]) {
      if (child && typeof child === 'object') stack.push([child as Tree, depth + 1]);
    }
  }
}
