/**
 * The one unified pipeline used both ways, so parsing and printing always agree on
 * the syntax (CommonMark + GFM + YAML frontmatter + GitBook tags).
 * Printing options are the canonical markdown conventions of this library.
 */
import remarkFrontmatter from 'remark-frontmatter';
import remarkGfm from 'remark-gfm';
import remarkParse from 'remark-parse';
import remarkStringify from 'remark-stringify';
import { unified } from 'unified';
import { remarkGitbookTags } from './syntax.ts';

/** Markdown without frontmatter: used when a leading `---` block is not YAML after all. */
export const bodyProcessor = unified().use(remarkParse).use(remarkGfm).use(remarkGitbookTags).freeze();

export const processor = unified()
  .use(remarkParse)
  .use(remarkGfm)
  .use(remarkFrontmatter, ['yaml'])
  .use(remarkGitbookTags)
  .use(remarkStringify, {
    // GitBook's own export style, so repositories synced from GitBook print back unchanged.
    bullet: '*',
    bulletOrdered: '.',
    emphasis: '_',
    strong: '*',
    fence: '`',
    fences: true,
    // `***`: a `---` rule as the first line would read back as frontmatter.
    rule: '*',
    ruleRepetition: 3,
    ruleSpaces: false,
    listItemIndent: 'one',
    incrementListMarker: true,
    setext: false,
    closeAtx: false,
    resourceLink: false,
    quote: '"',
  })
  .freeze();
