/** markdown -> { document, frontmatter }. Throws MarkdownNestingError on absurd nesting. */
import type { Definition, Nodes, Root } from 'mdast';
import { assertDepth } from './depth.ts';
import { blocksFromMdast } from './from-mdast.ts';
import { parseFrontmatter } from './frontmatter.ts';
import { assignKeys } from './keys.ts';
import { nestTags } from './nest.ts';
import { bodyProcessor, processor } from './processor.ts';
import type { Frontmatter, JSONDocument } from './types.ts';

export function markdownToDocument(markdown: string): { document: JSONDocument; frontmatter: Frontmatter } {
  let tree: Root = processor.parse(markdown);
  let frontmatter: Frontmatter = {};
  const first = tree.children[0];
  if (first?.type === 'yaml') {
    const parsed = parseFrontmatter(first.value);
    // `---` rules around text are not frontmatter: read the page without it.
    if (parsed) frontmatter = parsed;
    else tree = bodyProcessor.parse(markdown);
  }
  assertDepth(tree);
  nestTags(tree);

  // First definition of a label wins, as in CommonMark.
  const definitions = new Map<string, Definition>();
  const collect = (node: Nodes) => {
    if (node.type === 'definition' && !definitions.has(node.identifier.toLowerCase())) {
      definitions.set(node.identifier.toLowerCase(), node);
    }
    if ('children' in node) node.children.forEach(collect);
  };
  collect(tree);

  const document: JSONDocument = { object: 'document', data: {}, nodes: blocksFromMdast(tree.children, definitions) };
  return { document: assignKeys(document, { overwrite: true }), frontmatter };
}
