import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { chunkStarts } from '../shared/content/markdown/chunks.ts';
import { hasFrontmatterFences, parseMdastMicromark } from '../shared/content/markdown/mdast.ts';
import { bodyProcessor, processor } from '../shared/content/markdown/processor.ts';
import { withoutPositions } from './support/markdown-corpus.ts';

/**
 * Chunked parsing (linear time) must give exactly the tree of parsing the page whole.
 * Chunks of 1 byte split at every place chunks.ts allows, so every split rule is tried.
 */

function expectSameTree(markdown: string, withFrontmatter = true) {
  // Frontmatter is tried only with its closing fence (mdast.ts), in the whole parse too.
  const whole = (withFrontmatter && hasFrontmatterFences(markdown) ? processor : bodyProcessor).parse(markdown);
  expect(withoutPositions(parseMdastMicromark(markdown, withFrontmatter, 1))).toEqual(withoutPositions(whole));
}

/** Blocks chosen for the ways they could run on past a blank line. */
const blocks = [
  'Paragraph with [a reference][Ref One] and [shortcut] and [undefined].',
  '[ref one]: https://example.com/1 "Title"',
  '[shortcut]: <https://example.com/s>',
  '* loose\n\n* list\n\n  continued',
  '1. ordered\n2. list',
  '- item\n\n      indented code in item',
  '> quote\n> more',
  '> lazy\ncontinuation',
  '```\nfenced\n\n\nwith blank lines\n```',
  '~~~~ info\n```\n\nnot closed by backticks\n~~~~',
  '<pre>\n\nraw pre\n\n</pre>',
  '<!--\n\ncomment\n\n-->',
  '<div>\nhtml block\n</div>',
  '{% hint style="info" %}\nHint body\n{% endhint %}',
  '| a | b |\n|---|---|\n| 1 | 2 |',
  '    indented code\n\n    more',
  'Setext heading\n===',
  '---',
  '# Heading',
  '[^1]: footnote text\n\n    continued footnote',
  'Text with a footnote[^1].',
  '- item\n  ~~~\n  unclosed fence in an item',
  '> ```\n> quoted code',
  '<script>\n\nvar x;\n\n</script>',
  '[ref ONE]: /second-definition-of-the-same-label',
  '<div>\n{% hint %}\n</div>',
  '{% endhint %}',
];

describe('chunked markdown parsing', () => {
  it('splits only where a block certainly ended', () => {
    const markdown = '```\na\n\nb\n```\n\nnext\n\n- item\n\n- item\n\n<!--\n\nx\n\n-->\n\nlast\n';
    const starts = chunkStarts(markdown, 1).map((at) => markdown.slice(at).split('\n')[0]);
    expect(starts).toEqual(['```', 'next', '<!--', 'last']);
  });

  it('gives the same tree as one parse, for any sequence of blocks', () => {
    fc.assert(
      fc.property(
        fc.boolean(),
        fc.array(fc.constantFrom(...blocks), { minLength: 1, maxLength: 12 }),
        fc.array(fc.constantFrom('\n\n', '\n', '\n\n\n'), { minLength: 12, maxLength: 12 }),
        (frontmatter, chosen, separators) => {
          const body = chosen.map((block, i) => block + separators[i]).join('');
          expectSameTree((frontmatter ? '---\ndescription: x\n---\n' : '') + body, frontmatter || chosen.length % 2 === 0);
        },
      ),
      { numRuns: 300, seed: 8 },
    );
  });
});
