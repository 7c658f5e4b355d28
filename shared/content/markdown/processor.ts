/**
 * The one unified pipeline used both ways, so parsing and printing always agree on
 * the syntax (CommonMark + GFM + YAML frontmatter + GitBook tags + math).
 * Printing options are the canonical markdown conventions of this library.
 */
import remarkFrontmatter from 'remark-frontmatter';
import remarkMath from 'remark-math';
import remarkParse from 'remark-parse';
import remarkStringify from 'remark-stringify';
import { unified } from 'unified';
import { remarkGfmGated } from './gfm.ts';
import { remarkGitbookTags } from './syntax.ts';

/**
 * Math as GitBook writes it: `$$` fences around a block formula, `$$x$$` inline. A single
 * `$` stays text (prices, shell variables), so only `$$` opens inline math, and inline math
 * is printed with `$$` too.
 */
export const MATH = { singleDollarTextMath: false } as const;

/** Markdown without frontmatter: used when a leading `---` block is not YAML after all. */
export const bodyProcessor = unified().use(remarkParse).use(remarkGfmGated).use(remarkMath, MATH).use(remarkGitbookTags).freeze();

export const processor = unified()
  .use(remarkParse)
  .use(remarkGfmGated)
  .use(remarkFrontmatter, ['yaml'])
  .use(remarkMath, MATH)
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
