/** document (+ frontmatter) -> canonical markdown. Throws MarkdownNestingError on absurd nesting. */
import type { Root } from 'mdast';
import { assertDepth } from './depth.ts';
import { printFrontmatter } from './frontmatter.ts';
import { processor } from './processor.ts';
import { blocksToMdast } from './to-mdast.ts';
import type { Frontmatter, JSONDocument } from './types.ts';

export function documentToMarkdown(document: JSONDocument, frontmatter?: Frontmatter): string {
  assertDepth(document);
  const tree: Root = { type: 'root', children: blocksToMdast(document.nodes) };
  const yaml = printFrontmatter(frontmatter);
  if (yaml !== undefined) tree.children.unshift({ type: 'yaml', value: yaml });
  return processor.stringify(tree);
}
