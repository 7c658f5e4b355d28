import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { FAST_PATH_MAX_CHARS, fastMdast } from '../shared/content/markdown/fast-mdast.ts';
import { hasFrontmatterFences, parseMdast, parseMdastMicromark } from '../shared/content/markdown/mdast.ts';
import { markdownToDocument } from '../shared/content/markdown/parse.ts';
import remarkParse from 'remark-parse';
import { unified } from 'unified';
import { newOrg, useTestApi } from './support/api.ts';
import { editContent, pagesByTitle, spaceWithChangeRequest } from './support/published-content.ts';
import { generatedPage, markdownFiles, packageReadmes, withoutPositions } from './support/markdown-corpus.ts';
import { LAMBDA_ESBUILD_TARGET } from '../infra/lambda-node.ts';

/**
 * Pages markdown-it reads alike take the fast path (content/markdown/fast-mdast.ts); its tree
 * must be micromark's (positions aside) on every page it takes, and it must refuse the rest.
 * Every comparison counts the pages taken, so a fast path that refused everything would fail.
 */

/** Whether the fast path took `markdown`; when it did, its tree is micromark's. */
function sameAsMicromark(markdown: string, label = markdown.slice(0, 80)): boolean {
  const withFrontmatter = hasFrontmatterFences(markdown);
  const fast = fastMdast(markdown, withFrontmatter);
  if (!fast) return false;
  expect(fast, label).toEqual(withoutPositions(parseMdastMicromark(markdown, withFrontmatter)));
  return true;
}


/** Pages as GitBook exports them (tabs, steppers, loose and nested lists, quotes, images with titles). */
const gitbookPages = [
  generatedPage(3, 7),
  '---\ndescription: >-\n  Install the CLI\n  and sign in.\nicon: terminal\n---\n\n# Install\n\n{% tabs %}\n{% tab title="npm" %}\n```sh\nnpm install -g tool\n```\n{% endtab %}\n\n{% tab title="Homebrew" %}\n```sh\nbrew install tool\n```\n{% endtab %}\n{% endtabs %}\n',
  '# Steps\n\n{% stepper %}\n{% step %}\n### Create a key\n\nOpen **Settings** and choose _API keys_.\n{% endstep %}\n\n{% step %}\n### Use it\n\nSet `TOOL_KEY` in your shell.\n{% endstep %}\n{% endstepper %}\n',
  '## Options\n\n* `level`: how much to log.\n\n  Defaults to `1`.\n* `output`: where to write.\n  * `stdout`\n  * a file path\n\n1. First\n\n2. Second\n\n   With a second paragraph.\n',
  '> A quote\n> over lines.\n>\n> And a second paragraph, with [a link](https://example.com/docs "Docs").\n\n***\n\n![Diagram](../.gitbook/assets/diagram.png "The flow")\n\nLine ending in a hard break\\\nand the next line.\n',
  '{% hint style="warning" %}\nBack up your data **before** upgrading.\n{% endhint %}\n\nSetext heading\n==============\n\n    indented code\n\n```javascript title="client.js" overflow="wrap"\nconst client = new Client();\n```\n',
  '# Figures\n\n<figure><img src="../.gitbook/assets/shot.png" alt="A screenshot"><figcaption><p>The <strong>new</strong> editor</p></figcaption></figure>\n\n<details>\n\n<summary>Advanced options</summary>\n\nPress <kbd>Ctrl</kbd> + <kbd>K</kbd>.\n\n</details>\n\n<div align="center"><img src="logo.png" width="120"></div>\n',
  '## Options\n\n| Option | Default | Meaning |\n| --- | :---: | ---: |\n| `level` | 1 | How much to log, see [levels](levels.md) |\n| **output** |  | Where to write: `a\\|b` |\n\nAfter the table.\n',
  '# Empty frontmatter\n',
  '---\n---\n\nText after an empty frontmatter.\n',
];

/** Pages the fast path must leave to micromark, one per reason it has. */
const refused = [
  '| a | b |\n|---|---|\n| 1 |',
  'a | b\n--|--\n1 | 2',
  '* item\n\n  | a |\n  | - |\n  | 1 |',
  '```\n|---|\n```',
  '~~struck~~',
  'A note[^1].\n\n[^1]: The note.',
  '$$\nx^2\n$$',
  '<pre>\nraw HTML ending at its end tag\n</pre>',
  '<!-- a comment -->',
  '* an item going on with\n<img src="a.png"> a lazy line of HTML',
  '[ref]\n\n[ref]: https://example.com',
  'Visit https://example.com or www.example.com.',
  'Write to a@b.co.',
  '- [ ] task\n- [x] done',
  'Windows\r\nline endings',
  'A\u00a0non-breaking space',
  '{% @github-files/github-code-block url="https://x" %}',
  '***bold italic***',
  'in*tra*word',
  'A code span `over\ntwo lines`.',
  '```\nan unclosed fence',
  '2. starts at two',
  '*\n  an item opening with a blank line',
  '    indented\n    code over lines',
  'trailing tab\t\nline',
];

/** Pieces of markdown syntax, for random text. */
const pieces = ['# ', '## ', '* ', '- ', '+ ', '1. ', '2) ', '> ', '    ', '  ', ' ', '\t', '```', '```js x', '---', '***', '___', '{% hint style="info" %}', '{% endhint %}', '{%hint%}', '\\', '*', '**', '_', '`', '``', '[', ']', '(', ')', '![', '](', '&amp;', '&#42;', '&copy', 'foo', 'bar baz', '"', "'", '=', '-', '\n', '\n', '\n\n', 'http://x.y', 'a@b.c', ':', '%', '}', '{', '.', '!', '\\*', '  \n', '\\\n', '<', '<http://a.b>', '<br>', 'a_b', 'a*b', '<div>', '</div>', '<img src="a.png">', '<figure><img src="x.png" alt=""><figcaption><p>cap</p></figcaption></figure>', '<!-- c -->', '<details>\n<summary>S</summary>\n', '</details>', '<a href="x">', '</a>', '<pre>', '</pre>', '<kbd>K</kbd>'];

/** Lines of markdown blocks, for random pages. */
const lineKinds = ['<div>', '</div>', '<figure><img src="a.png" alt=""><figcaption><p>Cap</p></figcaption></figure>', '<details>', '<summary>Sum</summary>', '</details>', '<!-- comment -->', '<pre>', 'text <kbd>K</kbd> more', '* item', '- item', '1. one', '2. two', '10. ten', '> quote', '> * quoted item', '>', 'para text', 'more *em* and **strong** and `code`', '```', '```js', '# Head', '## Head', '{% hint style="info" %}', '{% endhint %}', '{% tabs %}', '{% tab title="A" %}', '{% endtab %}', '{% endtabs %}', '    code', '---', 'Setext', '===', '[link](https://x.y/a_b)', '![img](a.png "t")', 'a\\', 'end  ', '* [Page](page.md)', '***'];
const indents = ['', '', '', '  ', '  ', '   ', '    ', '      ', '\t', '> ', '>\t'];

describe('markdown fast path (markdown-it) against micromark', () => {
  it('takes GitBook pages and gives micromark\'s tree', () => {
    for (const page of gitbookPages) expect(sameAsMicromark(page), page.slice(0, 60)).toBe(true);
  });

  it('leaves to micromark every page it cannot show alike, and parseMdast still reads them', () => {
    for (const page of refused) {
      expect(fastMdast(page, false), page).toBeUndefined();
      // micromark's tree, with its positions.
      expect(parseMdast(page, false).children[0]?.position, page).toBeDefined();
    }
    expect(fastMdast('x'.repeat(FAST_PATH_MAX_CHARS), false)).toBeDefined();
    expect(fastMdast('x'.repeat(FAST_PATH_MAX_CHARS + 1), false)).toBeUndefined();
  });

  it('stalls on no hostile line: long runs of dashes, pipes, spaces and tabs read in linear time', () => {
    // Each of these took seconds with a backtracking regular expression (60 KB of dashes: 7 s);
    // scanned line by line they take milliseconds. The test's own timeout is the bound.
    const max = FAST_PATH_MAX_CHARS - 8;
    const hostile = ['|' + '-'.repeat(max) + 'x', '|-'.repeat(max / 2) + 'x', '{% a' + ' '.repeat(max) + 'x', 'a' + '\t'.repeat(max) + 'x', ' '.repeat(max) + '>', '{%'.repeat(max / 2), '* a\n' + ' '.repeat(max) + 'x', '| ' + '\\|'.repeat(max / 2)];
    for (const text of hostile) parseMdast(text.slice(0, FAST_PATH_MAX_CHARS), false);
  }, 5_000);

  it('gives micromark\'s tree on the fixtures and on the READMEs of installed packages', () => {
    const files = [...markdownFiles(join(import.meta.dirname, 'fixtures')), ...packageReadmes(400, 48 * 1024)];
    expect(files.length).toBeGreaterThan(300);
    let taken = 0;
    for (const path of files) if (sameAsMicromark(readFileSync(path, 'utf8'), relative(import.meta.dirname, path))) taken++;
    // Most READMEs hold HTML, tables or URLs in text (left to micromark); a few dozen are taken.
    expect(taken).toBeGreaterThan(40);
  }, 120_000);

  it('gives micromark\'s tree on random text of markdown syntax', () => {
    let taken = 0;
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...pieces), { minLength: 1, maxLength: 30 }), (chosen) => {
        if (sameAsMicromark(chosen.join(''))) taken++;
      }),
      { numRuns: 4000, seed: 29 },
    );
    expect(taken).toBeGreaterThan(400);
  });

  it('gives micromark\'s tree on random pages of block lines, indented and apart', () => {
    let taken = 0;
    const line = fc.tuple(fc.constantFrom('', '', '', '\n', '\n', '\n\n', '\n>\n>'), fc.constantFrom(...indents), fc.constantFrom(...lineKinds)).map(([before, indent, kind]) => `${before}${indent}${kind}`);
    fc.assert(
      fc.property(fc.boolean(), fc.array(line, { minLength: 1, maxLength: 14 }), fc.boolean(), (frontmatter, lines, newline) => {
        if (sameAsMicromark(`${frontmatter ? '---\ndescription: x\n---\n' : ''}${lines.join('\n')}${newline ? '\n' : ''}`)) taken++;
      }),
      { numRuns: 4000, seed: 31 },
    );
    expect(taken).toBeGreaterThan(600);
  });

  it('gives micromark\'s tree on random tables (cells with pipes, escapes, code, HTML; rows short and long)', () => {
    let taken = 0;
    const cell = fc.constantFrom('a', 'Name', '`code`', '`a\\|b`', '**bold**', '[link](x.md)', '', ' ', '\\|', 'x \\| y', 'a|b', '\\\\', '<br>', '<kbd>K</kbd>', '![i](a.png)', '*', ':', '&amp;');
    const mostly = fc.constantFrom(true, true, true, true, false);
    const row = (cells: number) => fc.tuple(fc.array(cell, { minLength: cells, maxLength: cells }), mostly, mostly).map(([texts, lead, trail]) => `${lead ? '| ' : ''}${texts.join(' | ')}${trail ? ' |' : ''}`);
    const table = fc.integer({ min: 1, max: 4 }).chain((cols) => fc.tuple(
      row(cols),
      fc.array(fc.constantFrom('-', '---', ':-', '-:', ':-:', ' - ', ':'), { minLength: cols, maxLength: cols }).map((cells) => `|${cells.join('|')}|`),
      fc.array(fc.constantFrom(cols, cols, cols, cols - 1, cols + 1).filter((n) => n > 0).chain(row), { maxLength: 4 }),
    ));
    fc.assert(
      fc.property(fc.constantFrom('', 'Intro.\n\n', 'Intro.\n', '> q\n'), table, fc.constantFrom('', '\n', '\n\nAfter.', '\n* item', '\n<br>'), (before, [header, delimiter, rows], after) => {
        if (sameAsMicromark(`${before}${[header, delimiter, ...rows].join('\n')}${after}`)) taken++;
      }),
      { numRuns: 3000, seed: 41 },
    );
    // Every page holds a table: a fast path refusing tables would take none.
    expect(taken).toBeGreaterThan(250);
  });

  it('gives plain CommonMark\'s tree to SUMMARY.md (no tag lines, no extensions)', () => {
    const plain = unified().use(remarkParse).freeze();
    let taken = 0;
    const entry = fc.tuple(fc.constantFrom('', '', '\n', '\n## Group\n\n'), fc.constantFrom('', '  ', '    ', '        ', '\t'), fc.constantFrom('*', '-', '+', '1.'), fc.constantFrom('[Page](page.md)', '[A *b*](a/b.md#x)', '[Link](https://x.y)', 'No link', '[Esc\\]ape](e.md)'))
      .map(([before, indent, bullet, text]) => `${before}${indent}${bullet} ${text}`);
    fc.assert(
      fc.property(fc.array(entry, { minLength: 1, maxLength: 20 }), (entries) => {
        const summary = `# Table of contents\n\n${entries.join('\n')}\n`;
        const fast = fastMdast(summary, false);
        if (!fast) return;
        taken++;
        expect(fast).toEqual(withoutPositions(plain.parse(summary)));
      }),
      { numRuns: 1500, seed: 37 },
    );
    expect(taken).toBeGreaterThan(300);
  });

  it('a page opening with a rule keeps its lists and quotes (frontmatter is tried only with a closing fence)', () => {
    // micromark's frontmatter construct, once tried and failed, kept every list and quote of the page from starting.
    const types = (markdown: string) => (markdownToDocument(markdown).document.nodes as { type: string }[]).map((node) => node.type);
    expect(types('---\n\n* one\n* two\n\n> quoted\n')).toEqual(['divider', 'list-unordered', 'blockquote']);
    expect(parseMdastMicromark('---\n\n* one\n\n> quoted\n', true).children.map((node) => node.type)).toEqual(['thematicBreak', 'list', 'blockquote']);
  });
});

describe('the fast path in a Lambda bundle', () => {
  it('survives minification: bundled as the functions are, it still takes pages and marks code spans over lines', async () => {
    // The functions' bundling (infra/constructs/service-function.ts): minified ESM for the Lambdas' Node (infra/lambda-node.ts).
    const out = await build({ entryPoints: [join(import.meta.dirname, '../shared/content/markdown/fast-mdast.ts')], bundle: true, minify: true, format: 'esm', platform: 'node', target: LAMBDA_ESBUILD_TARGET, write: false, logLevel: 'silent' });
    const dir = await mkdtemp(join(tmpdir(), 'fast-mdast-'));
    const file = join(dir, 'bundle.mjs');
    await writeFile(file, out.outputFiles[0]!.text);
    try {
      const bundled = await import(pathToFileURL(file).href) as typeof import('../shared/content/markdown/fast-mdast.ts');
      expect(bundled.fastPathAvailable).toBe(true);
      expect(bundled.fastMdast(generatedPage(1, 2), true)).toEqual(fastMdast(generatedPage(1, 2), true));
      expect(bundled.fastMdast('A code span `over\ntwo lines`.', false)).toBeUndefined();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('markdown written through the API', () => {
  const api = useTestApi();

  it('a page opening with a rule keeps its list and quote, and both parsers give its document', async () => {
    const org = await newOrg();
    const { space, cr } = await spaceWithChangeRequest(api, org);
    // A URL in text: the page is micromark's (the fast path leaves literal autolinks to it).
    const markdown = '---\n\n* one\n* two\n\n> quoted, see https://example.com\n';
    expect(fastMdast(markdown, false)).toBeUndefined();
    await editContent(api, org, space.id, cr.id, [
      { operation: 'insert_page', title: 'Rule first', document: { markdown } },
      { operation: 'insert_page', title: 'Fast', document: { markdown: gitbookPages[3] } },
    ]);
    const pages = await pagesByTitle(api, org, space.id, cr.id);
    const read = async (title: string) => {
      const res = await api.request('GET', `/spaces/${space.id}/change-requests/${cr.id}/content/page/${pages[title]!.id}`, { token: org.admin.token });
      expect(res.status).toBe(200);
      return res.body.document as { nodes: { type: string }[] };
    };
    expect((await read('Rule first')).nodes.map((node) => node.type)).toEqual(['divider', 'list-unordered', 'blockquote']);
    // A page the fast path takes (its tree is micromark's, above): loose and nested lists kept.
    expect(fastMdast(gitbookPages[3]!, false)).toBeDefined();
    const fast = (await read('Fast')).nodes as { type: string; nodes?: { type: string; nodes?: { type: string }[] }[] }[];
    expect(fast.map((node) => node.type)).toEqual(['heading-2', 'list-unordered', 'list-ordered']);
    expect(fast[1]!.nodes![0]!.nodes!.map((node) => node.type)).toEqual(['paragraph', 'paragraph']);
    expect(fast[1]!.nodes![1]!.nodes!.map((node) => node.type)).toEqual(['paragraph', 'list-unordered']);
    expect(withoutKeys(fast)).toEqual(withoutKeys(markdownToDocument(gitbookPages[3]!).document.nodes));
  });
});

const withoutKeys = (value: unknown): unknown =>
  Array.isArray(value) ? value.map(withoutKeys)
    : value && typeof value === 'object' ? Object.fromEntries(Object.entries(value).filter(([k]) => k !== 'key').map(([k, v]) => [k, withoutKeys(v)])) : value;
