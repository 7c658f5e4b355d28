/**
 * markdown -> { document, frontmatter }. Throws ContentLimitError (MarkdownNestingError for
 * nesting) when the markdown breaks a limit of limits.ts, before the expensive work when it can.
 */
import type { Definition, Nodes } from 'mdast';
import { assertMarkdownPrecheck, assertTreeLimits } from './limits.ts';
import { blocksFromMdast } from './from-mdast.ts';
import { parseFrontmatter } from './frontmatter.ts';
import { assignKeys } from './keys.ts';
import { protectTableBlanks } from './html-content.ts';
import { nestTags } from './nest.ts';
import { parseMdastSaying, type MarkdownParser } from './mdast.ts';
import type { Frontmatter, JSONDocument } from './types.ts';

/**
 * `frontmatterError`: the page opened with a `---` block that is not valid YAML (YAML's
 * message); the page was read without frontmatter, the block as markdown. `parser`: which
 * parser read the page (a Git import counts them in its log line).
 */
export function markdownToDocument(markdown: string): { document: JSONDocument; frontmatter: Frontmatter; frontmatterError?: string; parser: MarkdownParser } {
  assertMarkdownPrecheck(markdown);
  // Blank lines inside HTML tables (multi-line code in a cell) must not end the table.
  const source = protectTableBlanks(markdown);
  let { tree, parser } = parseMdastSaying(source, true);
  let frontmatter: Frontmatter = {};
  let frontmatterError: string | undefined;
  const first = tree.children[0];
  if (first?.type === 'yaml') {
    const parsed = parseFrontmatter(first.value);
    // `---` rules around text are not frontmatter: read the page without it.
    if ('frontmatter' in parsed) frontmatter = parsed.frontmatter;
    else {
      ({ tree, parser } = parseMdastSaying(source, false));
      frontmatterError = parsed.error;
    }
  }
  assertTreeLimits(tree);
  nestTags(tree);
  // Tag pairing nests blocks and parses swallowed HTML again: check the result too.
  assertTreeLimits(tree);

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
  return { document: assignKeys(document, { overwrite: true }), frontmatter, ...(frontmatterError ? { frontmatterError } : {}), parser };
}
