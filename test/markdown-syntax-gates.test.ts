import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { Root } from 'mdast';
import remarkFrontmatter from 'remark-frontmatter';
import remarkGfm from 'remark-gfm';
import remarkMath from 'remark-math';
import remarkParse from 'remark-parse';
import { unified } from 'unified';
import { CHUNK_BYTES } from '../shared/content/markdown/chunks.ts';
import { GFM_PATTERNS } from '../shared/content/markdown/gfm.ts';
import { hasFrontmatterFences, parseMdastMicromark } from '../shared/content/markdown/mdast.ts';
import { MATH } from '../shared/content/markdown/processor.ts';
import { remarkGitbookTags } from '../shared/content/markdown/syntax.ts';
import { generatedPage, markdownFiles, packageReadmes, withoutPositions } from './support/markdown-corpus.ts';

/**
 * A page is parsed without the GFM extensions it cannot use (content/markdown/syntax-gates.ts,
 * gfm.ts). The tree must be the one of the stock remark plugins (remark-gfm whole), on real
 * markdown (the fixtures, the READMEs of the installed packages), on pages built to sit on
 * each pattern's edge, and on random text made of the characters the extensions read.
 */
const stock = unified().use(remarkParse).use(remarkGfm).use(remarkFrontmatter, ['yaml']).use(remarkMath, MATH).use(remarkGitbookTags).freeze();
const stockBody = unified().use(remarkParse).use(remarkGfm).use(remarkMath, MATH).use(remarkGitbookTags).freeze();


function expectStockTree(markdown: string, withFrontmatter = true, label = markdown.slice(0, 80)) {
  // Frontmatter is tried only with its closing fence (mdast.ts), by the stock pipeline too.
  const pipeline = withFrontmatter && hasFrontmatterFences(markdown) ? stock : stockBody;
  const expected = pipeline.runSync(pipeline.parse(markdown)) as Root;
  const actual = parseMdastMicromark(markdown, withFrontmatter);
  // A page longer than a chunk is parsed in chunks, whose positions are their own (markdown-chunks.test.ts).
  if (markdown.length < CHUNK_BYTES) expect(actual, label).toEqual(expected);
  else expect(withoutPositions(actual), label).toEqual(withoutPositions(expected));
}

/** Each extension's syntax next to text that only looks like it, and escaped or encoded forms of its characters. */
const edges = [
  'Write to a@b.co or mailto:a@b.co or xmpp:a@b.co/home, not a\\@b.co or a&#64;b.co.',
  'Visit www.example.com, WWW.EXAMPLE.COM/x?y, (www.example.com), www\\.example.com and www.',
  'Links: http://example.com HTTPS://EXAMPLE.COM/a_b https:/x http:// ftp://x.y <https://x.y> [a](https://x.y)',
  'word@ @word @ end@. e@x',
  '~~struck~~ ~single~ ~~~not a fence~~~ a~b \\~~x~~ &#126;&#126;x&#126;&#126;',
  '```\n~~~\n```\n\n~~~\n```\n~~~',
  '| a | b |\n|---|:-:|\n| 1 | 2 |',
  'a | b\n--|--\n1 | 2',
  '| a |\n| - |',
  'a\n-\n\na\n---\n\n- a\n- b',
  'x &#124; y\n--- &#124; ---',
  '`a|b` and \\| pipes',
  'A note[^1] and [^missing] and [ ^1] and [\\^1].\n\n[^1]: The note\n    continued.',
  '[^a]:\n\n[^a]',
  '- [ ] open\n- [x] done\n- [X] done\n* [\t] tab\n1. [ ] ordered\n- [] not\n- [y] not',
  '- [\n] line ending',
  '$$\nx^2\n$$\n\nInline $$y$$ and single $z$ and \\$\\$ and $$ unclosed',
  '{% hint style="info" %}\nA hint with a@b.co and | pipe\n{% endhint %}',
  '---\ndescription: a@b.co | x\n---\n\n# Title',
  '> quote with www.example.com\n> - [ ] task | x',
  '<div>\nhttp://in.html.block a@b.co\n</div>\n\nafter',
  '[ref]: http://example.com\n\n[ref] and www.example.com',
];


describe('syntax gates', () => {
  it('leave GFM out only of pages without its characters', () => {
    expect(GFM_PATTERNS.autolinkLiteral.test('Read the [section](../a/README.md) first.')).toBe(false);
    expect(GFM_PATTERNS.autolinkLiteral.test('HTTPS://x')).toBe(true);
    expect(GFM_PATTERNS.table.test('| a |')).toBe(true);
  });

  it('give the stock tree on pages at each pattern\'s edge, alone and together', () => {
    for (const page of edges) {
      expectStockTree(page);
      expectStockTree(page, false);
    }
    expectStockTree(edges.join('\n\n'));
    expectStockTree(generatedPage(3, 7));
  });

  it('give the stock tree on the fixtures and on the READMEs of installed packages', () => {
    // READMEs under 24 KB: real-world markdown (tables, e-mail addresses, URLs). All 1,302
    // markdown files of node_modules and the spec gave the stock tree too (a run outside the
    // suite: about two minutes).
    const fixtures = markdownFiles(join(import.meta.dirname, 'fixtures')).slice(0, 200);
    const readmes = packageReadmes(120, 24 * 1024);
    expect(fixtures.length).toBeGreaterThan(5);
    expect(readmes.length).toBeGreaterThan(80);
    for (const path of [...fixtures, ...readmes]) expectStockTree(readFileSync(path, 'utf8'), true, relative(import.meta.dirname, path));
  }, 120_000);

  it('give the stock tree on random text of the characters the extensions read', () => {
    const alphabet = ['a', 'x', 'X', 'w', 'W', '.', 'h', 't', 'p', 's', ':', '/', '@', '|', '-', '~', '[', ']', '^', '$', '{', '%', '}', '*', '`', '\\', '&', '#', ';', '>', ' ', '\t', '\n', '\n\n', '1', '_', '(', ')'];
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...alphabet), { maxLength: 160 }), fc.boolean(), (chars, withFrontmatter) => {
        expectStockTree(chars.join(''), withFrontmatter);
      }),
      { numRuns: 3000, seed: 17 },
    );
  });
});
