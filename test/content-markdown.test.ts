// Markdown <-> document library (shared/content/markdown): exact round trips of canonical
// markdown for every construct, document shapes, tolerance of non-canonical input, keys,
// links and search sections. Plain unit tests.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { correctPublicDescription } from './support/public-description-fixes.ts';
import {
  MarkdownNestingError,
  assignKeys,
  captionText,
  documentLinks,
  documentSections,
  documentToMarkdown,
  markdownToDocument,
  type DocumentNode,
  type ElementNode,
  type JSONDocument,
} from '../shared/content/markdown/index.ts';
import { blockText } from '../shared/content/markdown/text.ts';
import { evaluateDocument } from '../shared/content/evaluate.ts';
import { linkOpenAPISpecs } from '../shared/content/openapi-specs.ts';
import type { StoredDocument } from '../shared/content/types.ts';

/** markdown -> document -> markdown */
function roundTrip(markdown: string): string {
  const { document, frontmatter } = markdownToDocument(markdown);
  return documentToMarkdown(document, frontmatter);
}

function blocks(markdown: string): ElementNode[] {
  return markdownToDocument(markdown).document.nodes as ElementNode[];
}

/** A compact, key-free view of a node: type, data, children (text as its leaves) and fragments. */
type FragmentShape = { fragment: string; nodes: Shape[] };
type Shape =
  | { type: string; data?: unknown; isVoid?: true; nodes?: Shape[]; fragments?: FragmentShape[] }
  | { text: string; marks?: string[] }[];
function shape(node: DocumentNode): Shape {
  if (node.object === 'text') {
    return node.leaves.map((l) => (l.marks.length ? { text: l.text, marks: l.marks.map((m) => m.type) } : { text: l.text }));
  }
  const out: { type: string; data?: unknown; isVoid?: true; nodes?: Shape[]; fragments?: FragmentShape[] } = { type: node.type };
  if (node.data && Object.keys(node.data).length > 0) out.data = node.data;
  if (node.isVoid) out.isVoid = true;
  if (node.nodes.length > 0) out.nodes = node.nodes.map(shape);
  if (node.fragments?.length) out.fragments = node.fragments.map((f) => ({ fragment: f.fragment, nodes: f.nodes.map(shape) }));
  return out;
}
const text = (t: string) => [{ text: t }];
const para = (t: string) => ({ type: 'paragraph', nodes: [text(t)] });
/** An image block's caption: a caption fragment holding one paragraph (DocumentBlockImage). */
const caption = (t: string) => [{ fragment: 'caption', nodes: [para(t)] }];

/** Every block and inline, those of fragments (image captions) included. */
function allElements(nodes: DocumentNode[]): ElementNode[] {
  return nodes.flatMap((n) =>
    n.object === 'text' ? [] : [n, ...allElements(n.nodes), ...(n.fragments ?? []).flatMap((f) => allElements(f.nodes))],
  );
}

/** Canonical fixtures: each must print back byte for byte, and parse to the given shape. */
const fixtures: { name: string; markdown: string; shape: Shape[] }[] = [
  {
    name: 'headings 1-3 and paragraphs',
    markdown: '# One\n\nIntro text.\n\n## Two\n\n### Three\n',
    shape: [
      { type: 'heading-1', nodes: [text('One')] },
      para('Intro text.'),
      { type: 'heading-2', nodes: [text('Two')] },
      { type: 'heading-3', nodes: [text('Three')] },
    ],
  },
  {
    name: 'heading with a custom anchor id',
    markdown: '## Install <a href="#setup" id="setup"></a>\n',
    shape: [{ type: 'heading-2', data: { id: 'setup' }, nodes: [text('Install')] }],
  },
  {
    name: 'bold, italic, code, strikethrough and nested marks',
    markdown: 'Plain **bold** _italic_ `code` ~~strike~~ **bold _both_** end\n',
    shape: [
      {
        type: 'paragraph',
        nodes: [
          [
            { text: 'Plain ' },
            { text: 'bold', marks: ['bold'] },
            { text: ' ' },
            { text: 'italic', marks: ['italic'] },
            { text: ' ' },
            { text: 'code', marks: ['code'] },
            { text: ' ' },
            { text: 'strike', marks: ['strikethrough'] },
            { text: ' ' },
            { text: 'bold ', marks: ['bold'] },
            { text: 'both', marks: ['bold', 'italic'] },
            { text: ' end' },
          ],
        ],
      },
    ],
  },
  {
    name: 'links to pages, anchors, files and urls',
    markdown:
      'See [the guide](guide/setup.md), [below](#usage), [a section](api.md#auth), [the pdf](files/a.pdf), [site](https://example.com) and <https://auto.example.com>.\n',
    shape: [
      {
        type: 'paragraph',
        nodes: [
          text('See '),
          { type: 'link', data: { ref: { kind: 'page', page: 'guide/setup.md' } }, nodes: [text('the guide')] },
          text(', '),
          { type: 'link', data: { ref: { kind: 'anchor', anchor: 'usage' } }, nodes: [text('below')] },
          text(', '),
          { type: 'link', data: { ref: { kind: 'anchor', anchor: 'auth', page: 'api.md' } }, nodes: [text('a section')] },
          text(', '),
          { type: 'link', data: { ref: { kind: 'file', file: 'files/a.pdf' } }, nodes: [text('the pdf')] },
          text(', '),
          { type: 'link', data: { ref: { kind: 'url', url: 'https://example.com' } }, nodes: [text('site')] },
          text(' and '),
          {
            type: 'link',
            data: { ref: { kind: 'url', url: 'https://auto.example.com' } },
            nodes: [text('https://auto.example.com')],
          },
          text('.'),
        ],
      },
    ],
  },
  {
    name: 'unordered list with nesting',
    markdown: '* one\n* two\n  * nested **bold**\n  * nested two\n* three\n',
    shape: [
      {
        type: 'list-unordered',
        nodes: [
          { type: 'list-item', nodes: [para('one')] },
          {
            type: 'list-item',
            nodes: [
              para('two'),
              {
                type: 'list-unordered',
                nodes: [
                  { type: 'list-item', nodes: [{ type: 'paragraph', nodes: [[{ text: 'nested ' }, { text: 'bold', marks: ['bold'] }]] }] },
                  { type: 'list-item', nodes: [para('nested two')] },
                ],
              },
            ],
          },
          { type: 'list-item', nodes: [para('three')] },
        ],
      },
    ],
  },
  {
    name: 'ordered lists (default and custom start)',
    markdown: '1. first\n2. second\n\nBetween.\n\n3. third\n4. fourth\n',
    shape: [
      { type: 'list-ordered', nodes: [{ type: 'list-item', nodes: [para('first')] }, { type: 'list-item', nodes: [para('second')] }] },
      para('Between.'),
      {
        type: 'list-ordered',
        data: { start: 3 },
        nodes: [{ type: 'list-item', nodes: [para('third')] }, { type: 'list-item', nodes: [para('fourth')] }],
      },
    ],
  },
  {
    name: 'task list',
    markdown: '* [ ] todo\n* [x] done\n',
    shape: [
      {
        type: 'list-tasks',
        nodes: [
          { type: 'list-item', data: { checked: false }, nodes: [para('todo')] },
          { type: 'list-item', data: { checked: true }, nodes: [para('done')] },
        ],
      },
    ],
  },
  {
    name: 'code block with language, and without',
    markdown: '```ts\nconst a = 1;\n\nexport { a };\n```\n\n```\nplain\n```\n',
    shape: [
      {
        type: 'code',
        data: { syntax: 'ts' },
        nodes: [
          { type: 'code-line', nodes: [text('const a = 1;')] },
          { type: 'code-line', nodes: [text('')] },
          { type: 'code-line', nodes: [text('export { a };')] },
        ],
      },
      { type: 'code', nodes: [{ type: 'code-line', nodes: [text('plain')] }] },
    ],
  },
  {
    name: 'table with alignment',
    markdown: '| Name | Count |\n| :--- | ----: |\n| a    |     1 |\n| `b`  |     2 |\n',
    shape: [
      {
        type: 'table',
        data: { align: ['left', 'right'] },
        nodes: [
          { type: 'table-row', nodes: [{ type: 'table-cell', nodes: [text('Name')] }, { type: 'table-cell', nodes: [text('Count')] }] },
          { type: 'table-row', nodes: [{ type: 'table-cell', nodes: [text('a')] }, { type: 'table-cell', nodes: [text('1')] }] },
          {
            type: 'table-row',
            nodes: [{ type: 'table-cell', nodes: [[{ text: 'b', marks: ['code'] }]] }, { type: 'table-cell', nodes: [text('2')] }],
          },
        ],
      },
    ],
  },
  {
    name: 'images: plain, several, and captioned (GitBook figure)',
    markdown:
      '![Diagram](.gitbook/assets/diagram.png)\n\n![a](https://cdn.example.com/a.png)\n![b](.gitbook/assets/b.png)\n\n<figure><img src=".gitbook/assets/c.png" alt="C"><figcaption><p>The caption</p></figcaption></figure>\n',
    shape: [
      {
        type: 'images',
        nodes: [{ type: 'image', data: { ref: { kind: 'file', file: '.gitbook/assets/diagram.png' }, alt: 'Diagram' }, isVoid: true }],
      },
      {
        type: 'images',
        nodes: [
          { type: 'image', data: { ref: { kind: 'url', url: 'https://cdn.example.com/a.png' }, alt: 'a' }, isVoid: true },
          { type: 'image', data: { ref: { kind: 'file', file: '.gitbook/assets/b.png' }, alt: 'b' }, isVoid: true },
        ],
      },
      {
        type: 'images',
        nodes: [
          { type: 'image', data: { ref: { kind: 'file', file: '.gitbook/assets/c.png' }, alt: 'C' }, isVoid: true, fragments: caption('The caption') },
        ],
      },
    ],
  },
  {
    name: 'inline image inside text',
    markdown: 'Click ![icon](icon.png) here\n',
    shape: [
      {
        type: 'paragraph',
        nodes: [
          text('Click '),
          { type: 'inline-image', data: { ref: { kind: 'file', file: 'icon.png' }, alt: 'icon' }, isVoid: true },
          text(' here'),
        ],
      },
    ],
  },
  {
    name: 'blockquote',
    markdown: '> Quoted _text_\n>\n> * item\n',
    shape: [
      {
        type: 'blockquote',
        nodes: [
          { type: 'paragraph', nodes: [[{ text: 'Quoted ' }, { text: 'text', marks: ['italic'] }]] },
          { type: 'list-unordered', nodes: [{ type: 'list-item', nodes: [para('item')] }] },
        ],
      },
    ],
  },
  {
    name: 'divider',
    markdown: 'Above\n\n***\n\nBelow\n',
    shape: [para('Above'), { type: 'divider', isVoid: true }, para('Below')],
  },
  {
    name: 'hints in every style',
    markdown:
      '{% hint style="info" %}\nInfo **text**\n{% endhint %}\n\n{% hint style="warning" %}\nFirst\n\nSecond\n{% endhint %}\n\n{% hint style="danger" %}\n* a\n* b\n{% endhint %}\n\n{% hint style="success" %}\nDone\n{% endhint %}\n',
    shape: [
      { type: 'hint', data: { style: 'info' }, nodes: [{ type: 'paragraph', nodes: [[{ text: 'Info ' }, { text: 'text', marks: ['bold'] }]] }] },
      { type: 'hint', data: { style: 'warning' }, nodes: [para('First'), para('Second')] },
      {
        type: 'hint',
        data: { style: 'danger' },
        nodes: [{ type: 'list-unordered', nodes: [{ type: 'list-item', nodes: [para('a')] }, { type: 'list-item', nodes: [para('b')] }] }],
      },
      { type: 'hint', data: { style: 'success' }, nodes: [para('Done')] },
    ],
  },
  {
    name: 'tabs',
    markdown:
      '{% tabs %}\n{% tab title="JavaScript" %}\n```js\nnpm install x\n```\n{% endtab %}\n{% tab title="Python" %}\nUse pip.\n{% endtab %}\n{% endtabs %}\n',
    shape: [
      {
        type: 'tabs',
        nodes: [
          {
            type: 'tabs-item',
            data: { title: 'JavaScript' },
            nodes: [{ type: 'code', data: { syntax: 'js' }, nodes: [{ type: 'code-line', nodes: [text('npm install x')] }] }],
          },
          { type: 'tabs-item', data: { title: 'Python' }, nodes: [para('Use pip.')] },
        ],
      },
    ],
  },
  {
    name: 'code block with title and options',
    markdown:
      '{% code title="app.js" %}\n```js\nconsole.log(1);\n```\n{% endcode %}\n\n{% code title="run.sh" overflow="wrap" lineNumbers="true" %}\n```bash\n./run\n```\n{% endcode %}\n',
    shape: [
      { type: 'code', data: { syntax: 'js', title: 'app.js' }, nodes: [{ type: 'code-line', nodes: [text('console.log(1);')] }] },
      {
        type: 'code',
        data: { syntax: 'bash', title: 'run.sh', overflow: 'wrap', lineNumbers: true },
        nodes: [{ type: 'code-line', nodes: [text('./run')] }],
      },
    ],
  },
  {
    name: 'content references',
    markdown:
      '{% content-ref url="getting-started.md" %}\n[getting-started.md](getting-started.md)\n{% endcontent-ref %}\n\n{% content-ref url="guides/" %}\n[guides/](guides/)\n{% endcontent-ref %}\n',
    shape: [
      { type: 'content-ref', data: { ref: { kind: 'page', page: 'getting-started.md' } }, isVoid: true },
      { type: 'content-ref', data: { ref: { kind: 'page', page: 'guides/' } }, isVoid: true },
    ],
  },
  {
    name: 'embeds, with and without caption',
    markdown:
      '{% embed url="https://www.youtube.com/watch?v=abc" %}\n\n{% embed url="https://github.com/org/repo" %}\nThe repository\n{% endembed %}\n',
    shape: [
      { type: 'embed', data: { url: 'https://www.youtube.com/watch?v=abc' }, isVoid: true },
      { type: 'embed', data: { url: 'https://github.com/org/repo', caption: 'The repository' }, isVoid: true },
    ],
  },
  {
    name: 'files, with and without caption',
    markdown:
      '{% file src=".gitbook/assets/manual.pdf" %}\nThe manual\n{% endfile %}\n\n{% file src="https://example.com/x.zip" %}\n{% endfile %}\n',
    shape: [
      { type: 'file', data: { ref: { kind: 'file', file: '.gitbook/assets/manual.pdf' }, caption: 'The manual' }, isVoid: true },
      { type: 'file', data: { ref: { kind: 'url', url: 'https://example.com/x.zip' } }, isVoid: true },
    ],
  },
  {
    name: 'include (reusable content)',
    markdown: '{% include "../.gitbook/includes/intro.md" %}\n',
    shape: [{ type: 'reusable-content', data: { path: '../.gitbook/includes/intro.md' }, isVoid: true }],
  },
  {
    name: 'stepper',
    markdown:
      '{% stepper %}\n{% step %}\n### Step 1\n\nInstall it.\n{% endstep %}\n{% step %}\n### Step 2\n\nRun it.\n{% endstep %}\n{% endstepper %}\n',
    shape: [
      {
        type: 'stepper',
        nodes: [
          { type: 'stepper-step', nodes: [{ type: 'heading-3', nodes: [text('Step 1')] }, para('Install it.')] },
          { type: 'stepper-step', nodes: [{ type: 'heading-3', nodes: [text('Step 2')] }, para('Run it.')] },
        ],
      },
    ],
  },
  {
    name: 'nested tags: hint in a tab, code with title in a step, hint in a list item',
    markdown: [
      '{% tabs %}',
      '{% tab title="Mac" %}',
      '{% hint style="warning" %}',
      'Needs Xcode.',
      '{% endhint %}',
      '{% endtab %}',
      '{% endtabs %}',
      '',
      '{% stepper %}',
      '{% step %}',
      '### Configure',
      '',
      '{% code title="config.json" %}',
      '```json',
      '{ "a": 1 }',
      '```',
      '{% endcode %}',
      '{% endstep %}',
      '{% endstepper %}',
      '',
      '1. Open the app',
      '   {% hint style="info" %}',
      '   It may take a while.',
      '   {% endhint %}',
      '2. Sign in',
      '',
    ].join('\n'),
    shape: [
      {
        type: 'tabs',
        nodes: [{ type: 'tabs-item', data: { title: 'Mac' }, nodes: [{ type: 'hint', data: { style: 'warning' }, nodes: [para('Needs Xcode.')] }] }],
      },
      {
        type: 'stepper',
        nodes: [
          {
            type: 'stepper-step',
            nodes: [
              { type: 'heading-3', nodes: [text('Configure')] },
              { type: 'code', data: { syntax: 'json', title: 'config.json' }, nodes: [{ type: 'code-line', nodes: [text('{ "a": 1 }')] }] },
            ],
          },
        ],
      },
      {
        type: 'list-ordered',
        nodes: [
          { type: 'list-item', nodes: [para('Open the app'), { type: 'hint', data: { style: 'info' }, nodes: [para('It may take a while.')] }] },
          { type: 'list-item', nodes: [para('Sign in')] },
        ],
      },
    ],
  },
  {
    name: 'tabs inside a hint, and a captioned image inside a hint',
    markdown:
      '{% hint style="info" %}\n{% tabs %}\n{% tab title="A" %}\nAlpha\n{% endtab %}\n{% endtabs %}\n{% endhint %}\n\n{% hint style="success" %}\n<figure><img src="a.png" alt=""><figcaption><p>Cap</p></figcaption></figure>\n{% endhint %}\n',
    shape: [
      {
        type: 'hint',
        data: { style: 'info' },
        nodes: [{ type: 'tabs', nodes: [{ type: 'tabs-item', data: { title: 'A' }, nodes: [para('Alpha')] }] }],
      },
      {
        type: 'hint',
        data: { style: 'success' },
        nodes: [{ type: 'images', nodes: [{ type: 'image', data: { ref: { kind: 'file', file: 'a.png' } }, isVoid: true, fragments: caption('Cap') }] }],
      },
    ],
  },
  {
    name: 'a hint inside a blockquote',
    markdown: '> {% hint style="info" %}\n> In a quote\n> {% endhint %}\n',
    shape: [{ type: 'blockquote', nodes: [{ type: 'hint', data: { style: 'info' }, nodes: [para('In a quote')] }] }],
  },
  {
    name: 'tag syntax inside fenced code stays code',
    markdown: '```markdown\n{% hint style="info" %}\nText\n{% endhint %}\n```\n',
    shape: [
      {
        type: 'code',
        data: { syntax: 'markdown' },
        nodes: [
          { type: 'code-line', nodes: [text('{% hint style="info" %}')] },
          { type: 'code-line', nodes: [text('Text')] },
          { type: 'code-line', nodes: [text('{% endhint %}')] },
        ],
      },
    ],
  },
  {
    name: 'line breaks inside a paragraph (GitBook writes them as `\\`)',
    markdown: '**Endpoint:**\\\n`https://api.example.com/`\n',
    shape: [{ type: 'paragraph', nodes: [[{ text: 'Endpoint:', marks: ['bold'] }, { text: '\n' }, { text: 'https://api.example.com/', marks: ['code'] }]] }],
  },
  {
    name: 'columns are blocks; tags this library has no block for (Liquid tags) are kept as raw lines',
    markdown: '{% columns %}\n{% column %}\nLeft\n{% endcolumn %}\n{% endcolumns %}\n\n{% raw %}\nx\n{% endraw %}\n',
    shape: [
      { type: 'columns', nodes: [{ type: 'column', nodes: [para('Left')] }] },
      { type: 'markdown', data: { markdown: '{% raw %}' }, isVoid: true },
      para('x'),
      { type: 'markdown', data: { markdown: '{% endraw %}' }, isVoid: true },
    ],
  },
  {
    name: 'a page as GitBook exports it (figures, trailing-space entity, breaks, steps, tabs)',
    markdown: [
      '# Getting started',
      '',
      'The service keeps your data in sync.&#x20;',
      '',
      '* Query balances (`getBalance`)',
      '',
      '{% stepper %}',
      '{% step %}',
      '### Create a key',
      '',
      '1. Click **"Keys"**\\',
      '   then **"New key"**',
      '',
      '<figure><img src="../.gitbook/assets/image (1).png" alt=""><figcaption><p>The keys page</p></figcaption></figure>',
      '{% endstep %}',
      '{% endstepper %}',
      '',
      '[_Learn more_](https://docs.example.com/more) about it.',
      '',
    ].join('\n'),
    shape: [
      { type: 'heading-1', nodes: [text('Getting started')] },
      para('The service keeps your data in sync. '),
      {
        type: 'list-unordered',
        nodes: [{ type: 'list-item', nodes: [{ type: 'paragraph', nodes: [[{ text: 'Query balances (' }, { text: 'getBalance', marks: ['code'] }, { text: ')' }]] }] }],
      },
      {
        type: 'stepper',
        nodes: [
          {
            type: 'stepper-step',
            nodes: [
              { type: 'heading-3', nodes: [text('Create a key')] },
              {
                type: 'list-ordered',
                nodes: [
                  {
                    type: 'list-item',
                    nodes: [
                      {
                        type: 'paragraph',
                        nodes: [[{ text: 'Click ' }, { text: '"Keys"', marks: ['bold'] }, { text: '\nthen ' }, { text: '"New key"', marks: ['bold'] }]],
                      },
                    ],
                  },
                ],
              },
              {
                type: 'images',
                nodes: [
                  {
                    type: 'image',
                    data: { ref: { kind: 'file', file: '../.gitbook/assets/image (1).png' } },
                    isVoid: true,
                    fragments: caption('The keys page'),
                  },
                ],
              },
            ],
          },
        ],
      },
      {
        type: 'paragraph',
        nodes: [
          { type: 'link', data: { ref: { kind: 'url', url: 'https://docs.example.com/more' } }, nodes: [[{ text: 'Learn more', marks: ['italic'] }]] },
          text(' about it.'),
        ],
      },
    ],
  },
  {
    name: 'raw HTML blocks are kept verbatim',
    markdown: '<details>\n<summary>More</summary>\nHidden\n</details>\n',
    shape: [{ type: 'html', data: { html: '<details>\n<summary>More</summary>\nHidden\n</details>' }, isVoid: true }],
  },
];

describe('markdown round trip: every construct', () => {
  for (const fixture of fixtures) {
    it(fixture.name, () => {
      expect(roundTrip(fixture.markdown)).toBe(fixture.markdown);
      expect(blocks(fixture.markdown).map(shape)).toEqual(fixture.shape);
    });
  }

  it('frontmatter (description, icon, emoji, hidden, layout, cover)', () => {
    const markdown = [
      '---',
      'description: Everything about setup',
      'icon: rocket',
      'emoji: 🚀',
      'hidden: true',
      'cover: .gitbook/assets/cover.png',
      'coverY: 0',
      'layout:',
      '  cover:',
      '    visible: true',
      '    size: full',
      '  title:',
      '    visible: true',
      '---',
      '',
      '# Setup',
      '',
    ].join('\n');
    expect(roundTrip(markdown)).toBe(markdown);
    const { frontmatter, document } = markdownToDocument(markdown);
    expect(frontmatter).toEqual({
      description: 'Everything about setup',
      icon: 'rocket',
      emoji: '🚀',
      hidden: true,
      cover: '.gitbook/assets/cover.png',
      coverY: 0,
      layout: { cover: { visible: true, size: 'full' }, title: { visible: true } },
    });
    expect(document.nodes.map(shape)).toEqual([{ type: 'heading-1', nodes: [text('Setup')] }]);
  });

  it('an object frontmatter value (GitBook cover object) and an empty body', () => {
    const markdown = '---\ncover:\n  ref: .gitbook/assets/c.png\n  y: -20\n---\n';
    expect(roundTrip(markdown)).toBe(markdown);
    expect(markdownToDocument(markdown).frontmatter.cover).toEqual({ ref: '.gitbook/assets/c.png', y: -20 });
    expect(markdownToDocument(markdown).document.nodes).toEqual([]);
  });

  it('a whole page mixing every construct round-trips', () => {
    const page = [
      '---\ndescription: All of it\n---\n',
      ...fixtures.map((f) => f.markdown),
    ].join('\n');
    expect(roundTrip(page)).toBe(page);
  });

  it('the document has the public JSON shape', () => {
    const { document } = markdownToDocument('Hello world\n');
    expect(document).toEqual({
      object: 'document',
      data: {},
      nodes: [
        {
          object: 'block',
          type: 'paragraph',
          key: expect.any(String),
          data: {},
          nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: 'Hello world', marks: [] }] }],
        },
      ],
    });
    const marked = markdownToDocument('**b**\n').document.nodes[0] as ElementNode;
    expect(marked.nodes[0]).toEqual({ object: 'text', leaves: [{ object: 'leaf', text: 'b', marks: [{ object: 'mark', type: 'bold' }] }] });
    expect(documentToMarkdown({ object: 'document', data: {}, nodes: [] })).toBe('');
  });
});

describe('non-canonical input is read correctly and printed canonically', () => {
  const cases: { name: string; input: string; canonical: string }[] = [
    { name: '- and + bullets become *', input: '- a\n- b\n\n+ c\n', canonical: '* a\n* b\n\n- c\n' },
    { name: 'loose lists and extra blank lines', input: '* a\n\n\n* b\n\n\n\nText\n\n\n', canonical: '* a\n* b\n\nText\n' },
    { name: 'underscore emphasis, other rules, setext headings', input: 'Title\n=====\n\n__bold__ and *it*\n\n---\n\n___\n', canonical: '# Title\n\n**bold** and _it_\n\n***\n\n***\n' },
    { name: 'tilde fences', input: '~~~py\nx = 1\n~~~\n', canonical: '```py\nx = 1\n```\n' },
    { name: 'setext headings become ATX; deep headings keep their level', input: 'Deep\n----\n\n##### Deeper\n', canonical: '## Deep\n\n##### Deeper\n' },
    {
      name: "single-quoted attributes, no inner spaces, blank lines inside tags",
      input: "{%hint style='warning'%}\n\n\nCareful\n\n\n{%endhint%}\n",
      canonical: '{% hint style="warning" %}\nCareful\n{% endhint %}\n',
    },
    {
      name: 'blank lines between tabs',
      input: '{% tabs %}\n\n{% tab title="A" %}\n\nAAA\n\n{% endtab %}\n\n{% tab title=\'B\' %}\nBBB\n{% endtab %}\n\n{% endtabs %}\n',
      canonical: '{% tabs %}\n{% tab title="A" %}\nAAA\n{% endtab %}\n{% tab title="B" %}\nBBB\n{% endtab %}\n{% endtabs %}\n',
    },
    {
      name: 'content-ref link text is regenerated from the url',
      input: '{% content-ref url="a/b.md" %}\n[Nice title](a/b.md)\n{% endcontent-ref %}\n',
      canonical: '{% content-ref url="a/b.md" %}\n[a/b.md](a/b.md)\n{% endcontent-ref %}\n',
    },
    {
      name: 'an embed without end tag followed directly by text',
      input: '{% embed url="https://x.example" %}\nAfter\n',
      canonical: '{% embed url="https://x.example" %}\n\nAfter\n',
    },
    {
      name: 'reference-style links and images are resolved',
      input: 'A [link][ref] and ![pic][img].\n\n[ref]: https://example.com\n[img]: pic.png "Pic"\n',
      canonical: 'A [link](https://example.com) and ![pic](pic.png "Pic").\n',
    },
    {
      name: 'HTML running on over tag lines and markdown (no blank line) is split back',
      input: '{% hint style="info" %}\n<div>x</div>\n{% endhint %}\n* after\n',
      canonical: '{% hint style="info" %}\n<div>x</div>\n{% endhint %}\n\n* after\n',
    },
    {
      name: 'soft-wrapped lines join with spaces; hard breaks (two spaces or backslash) become `\\`',
      input: 'One\ntwo\nthree  \nfour\\\nfive\n',
      canonical: 'One two three\\\nfour\\\nfive\n',
    },
    {
      name: 'figures without <p> in the caption, and captionless figures',
      input: '<figure><img src="a.png" alt="A"><figcaption>Cap</figcaption></figure>\n\n<figure><img src="b.png" alt=""><figcaption></figcaption></figure>\n',
      canonical: '<figure><img src="a.png" alt="A"><figcaption><p>Cap</p></figcaption></figure>\n\n![](b.png)\n',
    },
    {
      name: 'tags end lists and quotes without blank lines',
      input: '{% hint style="info" %}\n* a\n* b\n> q\n{% endhint %}\nAfter\n',
      canonical: '{% hint style="info" %}\n* a\n* b\n\n> q\n{% endhint %}\n\nAfter\n',
    },
    {
      name: 'unclosed tab is closed by the next tab, unclosed hint by the end',
      input: '{% tabs %}\n{% tab title="A" %}\nA\n{% tab title="B" %}\nB\n{% endtabs %}\n\n{% hint style="info" %}\nOpen\n',
      canonical: '{% tabs %}\n{% tab title="A" %}\nA\n{% endtab %}\n{% tab title="B" %}\nB\n{% endtab %}\n{% endtabs %}\n\n{% hint style="info" %}\nOpen\n{% endhint %}\n',
    },
    {
      name: 'a stray end tag becomes (escaped) text; unknown tags stay verbatim, blank lines inside dropped',
      input: '{% endhint %}\n\n{% columns %}\n\n{% column %}\ncontent\n{% endcolumn %}\n\n{% endcolumns %}\n',
      canonical: '\\{% endhint %}\n\n{% columns %}\n{% column %}\ncontent\n{% endcolumn %}\n{% endcolumns %}\n',
    },
    {
      name: 'a leading `---` block that is not YAML mapping is content, not frontmatter',
      input: '---\n\nSome text\n\n---\n',
      canonical: '***\n\nSome text\n\n***\n',
    },
    {
      name: 'GitBook folded frontmatter description',
      input: '---\ndescription: >-\n  A long\n  description\nicon: book\n---\n\nText\n',
      canonical: '---\ndescription: A long description\nicon: book\n---\n\nText\n',
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const once = roundTrip(c.input);
      expect(once).toBe(c.canonical);
      expect(roundTrip(once)).toBe(once);
    });
  }

  it('single-quoted hint style parses to the same document as double quotes', () => {
    const single = blocks("{% hint style='warning' %}\nX\n{% endhint %}\n").map(shape);
    const double = blocks('{% hint style="warning" %}\nX\n{% endhint %}\n').map(shape);
    expect(single).toEqual(double);
    expect(single[0]).toEqual({ type: 'hint', data: { style: 'warning' }, nodes: [para('X')] });
  });

  it('text that looks like a tag is escaped so it stays text', () => {
    const document: JSONDocument = {
      object: 'document',
      data: {},
      nodes: [{ object: 'block', type: 'paragraph', key: '', nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: '{% hint style="info" %}', marks: [] }] }] }],
    };
    const markdown = documentToMarkdown(document);
    expect(markdown).toBe('\\{% hint style="info" %}\n');
    expect(blocks(markdown).map(shape)).toEqual([para('{% hint style="info" %}')]);
  });

  it('prints documents made through the API (no keys, GitBook-only nodes)', () => {
    const document: JSONDocument = {
      object: 'document',
      data: {},
      nodes: [
        {
          object: 'block',
          type: 'paragraph',
          key: '',
          nodes: [
            { object: 'text', leaves: [{ object: 'leaf', text: 'Hi ', marks: [] }] },
            { object: 'inline', type: 'emoji', key: '', data: { code: '1f600' }, isVoid: true, nodes: [] },
          ],
        },
        { object: 'block', type: 'paragraph', key: '', nodes: [] },
        { object: 'block', type: 'content-ref', key: '', isVoid: true, data: { ref: { kind: 'url', url: 'https://x.example' } }, nodes: [] },
      ],
    };
    expect(documentToMarkdown(document, { description: 'D' })).toBe(
      '---\ndescription: D\n---\n\nHi 😀\n\n{% content-ref url="https://x.example" %}\n<https://x.example>\n{% endcontent-ref %}\n',
    );
  });
});

describe('block keys', () => {
  const markdown = '# T\n\nSame\n\nSame\n\n* a\n* b\n\n{% hint style="info" %}\nSame\n{% endhint %}\n';

  it('are deterministic: the same markdown gives the same keys', () => {
    expect(markdownToDocument(markdown).document).toEqual(markdownToDocument(markdown).document);
  });

  it('are present and unique on every block and inline, even for identical blocks', () => {
    const elements = allElements(markdownToDocument(markdown + '\n[x](y.md) [x](y.md)\n').document.nodes);
    const keys = elements.map((e) => e.key);
    expect(keys.every((k) => typeof k === 'string' && k.length > 0)).toBe(true);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('survive insertions elsewhere (content keys, not positions) and change on edit', () => {
    const before = markdownToDocument('Alpha\n\nBeta\n\nGamma\n').document.nodes as ElementNode[];
    const inserted = markdownToDocument('New\n\nAlpha\n\nBeta\n\nGamma\n').document.nodes as ElementNode[];
    expect(inserted.slice(1).map((n) => n.key)).toEqual(before.map((n) => n.key));
    const edited = markdownToDocument('Alpha\n\nBeta!\n\nGamma\n').document.nodes as ElementNode[];
    expect(edited[0]!.key).toBe(before[0]!.key);
    expect(edited[1]!.key).not.toBe(before[1]!.key);
    expect(edited[2]!.key).toBe(before[2]!.key);
  });

  it('caption fragments and their paragraphs get keys; a caption edit changes the image key', () => {
    const figure = (cap: string) => `<figure><img src="a.png" alt="A"><figcaption><p>${cap}</p></figcaption></figure>\n`;
    const image = (cap: string) => (markdownToDocument(figure(cap)).document.nodes[0] as ElementNode).nodes[0] as ElementNode;
    const [fragment] = image('One').fragments!;
    expect(fragment!.key).toMatch(/^[\w-]{12}$/);
    expect((fragment!.nodes[0] as ElementNode).key).toMatch(/^[\w-]{12}$/);
    expect(image('One').key).toBe(image('One').key);
    expect(image('Two').key).not.toBe(image('One').key);
  });

  // Keys are stored with every page, and a three-way merge matches blocks by key: a change
  // in how they are derived would read every block of every stored page as replaced.
  it('keep the values stored pages have: the derivation does not drift', () => {
    const markdown = [
      '# Keys', '', 'Same **bold** and `code` with a [link](page.md "T").', '', 'Same **bold** and `code` with a [link](page.md "T").', '',
      '* one', '* two', '', '{% hint style="warning" %}', 'Inside.', '{% endhint %}', '',
      '<figure><img src="a.png" alt="A"><figcaption><p>Caption</p></figcaption></figure>', '', '```js', 'let a = 1;', '```', '',
    ].join('\n');
    const { document } = markdownToDocument(markdown);
    // Every block, inline and fragment, in document order.
    const allKeys = (nodes: DocumentNode[]): string[] => nodes.flatMap((n) =>
      n.object === 'text' ? [] : [n.key, ...allKeys(n.nodes), ...(n.fragments ?? []).flatMap((f) => [f.key ?? '', ...allKeys(f.nodes)])]);
    const keys = () => allKeys(document.nodes);
    const stored = [
      '5-Fh0c_s_6nW', '-nNb8p3LQgPH', 'DiLKWJdBv_JX', 'lg5qEL677qo7', '6pBura8Zk_C5', 'QQb-Arrs5wrc',
      'ghCp4OokLUw4', 'zeLTjm4SZVZB', 'rBhvN_veHRlc', 'gHLzR_LVthLh', 'Y-FVYSoHfgtu', 'G0MHbWvuKPcw',
      'EKBSOkLzct4Y', '3HNlQ8-CiW1F', 'K11TFJoe1tm3', '4jfBbLBT1gLA', 'hEx_n-G0fpxt', 'Ju_FyjqgBn94',
    ];
    expect(keys()).toEqual(stored);
    // An existing key taken by the block that would have had it: the next occurrence's key.
    const [, first, second] = document.nodes as ElementNode[];
    second!.key = first!.key;
    first!.key = '';
    assignKeys(document);
    expect(keys()).toEqual([stored[0], stored[3], stored[2], stored[1], ...stored.slice(4)]);
  });

  it('assignKeys fills missing keys and keeps existing ones', () => {
    const document: JSONDocument = {
      object: 'document',
      data: {},
      nodes: [
        { object: 'block', type: 'paragraph', key: 'keep-me', nodes: [] },
        { object: 'block', type: 'divider', key: '', isVoid: true, data: {}, nodes: [] },
      ],
    };
    assignKeys(document);
    const [first, second] = document.nodes as ElementNode[];
    expect(first!.key).toBe('keep-me');
    expect(second!.key).toMatch(/^[\w-]{12}$/);
  });
});

describe('documentLinks', () => {
  it('lists every target with its kind and the key of the block it is in', () => {
    const { document } = markdownToDocument(
      [
        'Read [setup](setup.md), [auth](api.md#auth), [here](#top), [site](https://example.com).',
        '',
        '* See [the pdf](files/a.pdf)',
        '',
        '![shot](.gitbook/assets/shot.png)',
        '',
        '{% content-ref url="guides/" %}\n[guides/](guides/)\n{% endcontent-ref %}',
        '',
        '{% file src=".gitbook/assets/manual.pdf" %}\n{% endfile %}',
        '',
        '{% embed url="https://youtu.be/x" %}',
        '',
        '{% hint style="info" %}\n[Deep](deep/page.md)\n{% endhint %}',
        '',
      ].join('\n'),
    );
    const [paragraph, list, images, contentRef, file, embed, hint] = document.nodes as ElementNode[];
    const listParagraph = ((list!.nodes[0] as ElementNode).nodes[0] as ElementNode).key;
    const image = (images!.nodes[0] as ElementNode).key;
    const hintParagraph = (hint!.nodes[0] as ElementNode).key;
    expect(documentLinks(document)).toEqual([
      { target: 'setup.md', kind: 'page', blockKey: paragraph!.key },
      { target: 'api.md#auth', kind: 'page', blockKey: paragraph!.key },
      { target: '#top', kind: 'anchor', blockKey: paragraph!.key },
      { target: 'https://example.com', kind: 'url', blockKey: paragraph!.key },
      { target: 'files/a.pdf', kind: 'file', blockKey: listParagraph },
      { target: '.gitbook/assets/shot.png', kind: 'file', blockKey: image },
      { target: 'guides/', kind: 'page', blockKey: contentRef!.key },
      { target: '.gitbook/assets/manual.pdf', kind: 'file', blockKey: file!.key },
      { target: 'https://youtu.be/x', kind: 'url', blockKey: embed!.key },
      { target: 'deep/page.md', kind: 'page', blockKey: hintParagraph },
    ]);
  });
});

describe('documentSections', () => {
  it('gives one section per heading with its heading path and body text', () => {
    const { document } = markdownToDocument(
      [
        'Intro before any heading.',
        '',
        '# Guide',
        '',
        'Welcome **here**.',
        '',
        '## Install <a href="#setup" id="setup"></a>',
        '',
        '```bash\nnpm i x\n```',
        '',
        '{% hint style="info" %}\nNeeds Node.\n{% endhint %}',
        '',
        '## Usage',
        '',
        '{% stepper %}\n{% step %}\n### Run\n\nStart it.\n{% endstep %}\n{% endstepper %}',
        '',
        '# Guide',
        '',
        '* one\n* two',
        '',
      ].join('\n'),
    );
    expect(documentSections(document)).toEqual([
      { id: '', title: '', headings: [], body: 'Intro before any heading.' },
      { id: 'guide', title: 'Guide', headings: ['Guide'], body: 'Welcome here.' },
      { id: 'setup', title: 'Install', headings: ['Guide', 'Install'], body: 'npm i x\nNeeds Node.' },
      { id: 'usage', title: 'Usage', headings: ['Guide', 'Usage'], body: '' },
      { id: 'run', title: 'Run', headings: ['Guide', 'Usage', 'Run'], body: 'Start it.' },
      { id: 'guide-1', title: 'Guide', headings: ['Guide'], body: 'one\ntwo' },
    ]);
  });

  it('reads image captions from their caption fragment', () => {
    const { document } = markdownToDocument('# Shots\n\n<figure><img src="a.png" alt="Alt"><figcaption><p>The caption</p></figcaption></figure>\n');
    expect(documentSections(document)).toEqual([{ id: 'shots', title: 'Shots', headings: ['Shots'], body: 'Alt The caption' }]);
  });

  it('omits the leading section when there is no text before the first heading', () => {
    const { document } = markdownToDocument('# Only\n\nBody\n');
    expect(documentSections(document)).toEqual([{ id: 'only', title: 'Only', headings: ['Only'], body: 'Body' }]);
  });
});

describe('limits', () => {
  it('absurd nesting fails with MarkdownNestingError instead of overflowing the stack', () => {
    expect(() => markdownToDocument('> '.repeat(5000) + 'x\n')).toThrow(MarkdownNestingError);
    let deep: DocumentNode = { object: 'block', type: 'paragraph', key: '', nodes: [] };
    for (let i = 0; i < 5000; i++) deep = { object: 'block', type: 'blockquote', key: '', nodes: [deep] };
    expect(() => documentToMarkdown({ object: 'document', data: {}, nodes: [deep] })).toThrow(MarkdownNestingError);
  });

  it('thousands of unclosed tags do not nest without bound and print stably', () => {
    const once = roundTrip('{% hint style="info" %}\n'.repeat(2000) + 'x\n');
    expect(roundTrip(once)).toBe(once);
  });
});

/**
 * The public description of the document (`@gitbook/api` spec/openapi.json): every node the
 * library emits for a page with every construct that has a public form must validate
 * against its DocumentBlock* / DocumentInline* / DocumentText schema, and the whole
 * document against JSONDocument. Not covered, having no public form: tables (records),
 * raw HTML and markdown blocks, inline HTML, `{% include %}` by path and files at URLs.
 */
describe('public document schemas', () => {
  const require = createRequire(import.meta.url);
  const description = correctPublicDescription(JSON.parse(readFileSync(require.resolve('@gitbook/api/spec/openapi.json'), 'utf8')));
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  (addFormats as unknown as (a: Ajv2020) => void)(ajv);
  ajv.addFormat('emoji', true);
  ajv.addFormat('icon', true);
  ajv.addSchema({ ...description, $id: 'gitbook-openapi.json' });
  const schemas = description.components.schemas as Record<string, { properties?: { object?: { enum?: string[] }; type?: { enum?: string[] } } }>;
  /** "block:image" -> DocumentBlockImage, from the type enums of the Document* schemas. */
  const schemaOf = new Map<string, string>();
  for (const [name, schema] of Object.entries(schemas)) {
    if (!/^Document(Block|Inline)/.test(name)) continue;
    for (const type of schema.properties?.type?.enum ?? []) schemaOf.set(`${schema.properties?.object?.enum?.[0]}:${type}`, name);
  }
  const compiled = new Map<string, ValidateFunction>();
  const validator = (name: string) => {
    if (!compiled.has(name)) compiled.set(name, ajv.compile({ $ref: `gitbook-openapi.json#/components/schemas/${name}` }));
    return compiled.get(name)!;
  };
  const errorsOf = (name: string, value: unknown) => {
    const validate = validator(name);
    return validate(value) ? [] : (validate.errors ?? []).map((e) => `${name}${e.instancePath} ${e.message}`);
  };

  /** Schema errors of every node, each checked against the schema of its own type. */
  function violations(nodes: DocumentNode[], path = ''): string[] {
    return nodes.flatMap((node, i): string[] => {
      const at = `${path}/${i}`;
      if (node.object === 'text') return errorsOf('DocumentText', node).map((e) => `${at} ${e}`);
      const name = schemaOf.get(`${node.object}:${node.type}`);
      const own = name ? errorsOf(name, node) : [`no public schema for ${node.object} ${node.type}`];
      return [
        ...own.map((e) => `${at} (${node.type}) ${e}`),
        ...violations(node.nodes, `${at}/nodes`),
        ...(node.fragments ?? []).flatMap((f, j) => violations(f.nodes, `${at}/fragments/${j}/nodes`)),
      ];
    });
  }

  const rich = [
    '# Title <a href="#top" id="top"></a>',
    '',
    'Plain **bold** _italic_ `code` ~~strike~~ **bold _both_**, a [page](setup.md), an [anchor](api.md#auth), [here](#top),',
    'a [site](https://example.com), a [file](files/a.pdf) and an inline image ![icon](icon.png "Icon caption") in text.\\',
    'After a break.',
    '',
    '## Lists',
    '',
    '* one\n* two\n  1. nested',
    '',
    '3. three\n4. four',
    '',
    '- [x] done\n- [ ] todo',
    '',
    '### Quotes and code',
    '',
    '> Quoted **text**',
    '',
    '```js\nconst a = 1;\n```',
    '',
    '{% code title="config.yaml" lineNumbers="true" %}\n```yaml\nkey: value\n```\n{% endcode %}',
    '',
    '***',
    '',
    '![Diagram](.gitbook/assets/diagram.png)',
    '',
    '![a](https://cdn.example.com/a.png)\n![b](.gitbook/assets/b.png)',
    '',
    '<figure><img src=".gitbook/assets/c.png" alt="C"><figcaption><p>The caption</p></figcaption></figure>',
    '<figure><img src=".gitbook/assets/d.png" alt=""><figcaption></figcaption></figure>',
    '',
    '![titled](https://cdn.example.com/t.png "Title as caption")',
    '',
    '{% hint style="warning" %}\nCareful with [links](other.md).\n{% endhint %}',
    '',
    '{% tabs %}\n{% tab title="A" %}\nAlpha\n{% endtab %}\n\n{% tab title="B" %}\n<figure><img src="t.png" alt="T"><figcaption><p>In a tab</p></figcaption></figure>\n{% endtab %}\n{% endtabs %}',
    '',
    '{% stepper %}\n{% step %}\n### Step\n\nDo it.\n{% endstep %}\n{% endstepper %}',
    '',
    '{% content-ref url="guides/" %}\n[guides](guides/)\n{% endcontent-ref %}',
    '',
    '{% embed url="https://github.com/org/repo" %}\nThe repository\n{% endembed %}',
    '',
    '{% file src=".gitbook/assets/manual.pdf" %}\nThe manual\n{% endfile %}',
    '',
  ].join('\n');

  it('every node of a rich page validates, image captions as caption fragments', () => {
    const { document } = markdownToDocument(rich);
    const types = new Set(allElements(document.nodes).map((n) => n.type));
    for (const type of ['images', 'image', 'inline-image', 'link', 'hint', 'tabs', 'stepper', 'code', 'list-tasks', 'embed', 'file', 'content-ref']) {
      expect(types).toContain(type);
    }
    expect(violations(document.nodes)).toEqual([]);
    expect(errorsOf('JSONDocument', document)).toEqual([]);

    const images = allElements(document.nodes).filter((n) => n.type === 'image');
    expect(images.map((n) => captionText(n))).toEqual(['', '', '', 'The caption', '', 'Title as caption', 'In a tab']);
    for (const image of images) {
      expect(image.data).not.toHaveProperty('caption');
      expect(image.isVoid).toBe(true);
    }
    const captioned = images.find((n) => captionText(n) === 'The caption')!;
    expect(captioned.fragments).toEqual([
      {
        object: 'fragment',
        key: expect.any(String),
        fragment: 'caption',
        nodes: [{ object: 'block', type: 'paragraph', key: expect.any(String), data: {}, nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: 'The caption', marks: [] }] }] }],
      },
    ]);
    expect(allElements(document.nodes).filter((n) => n.type === 'images').every((n) => n.isVoid === false)).toBe(true);
    // An inline image keeps its caption in data, as DocumentInlineImage has it.
    expect(allElements(document.nodes).find((n) => n.type === 'inline-image')!.data).toEqual({
      ref: { kind: 'file', file: 'icon.png' }, alt: 'icon', caption: 'Icon caption',
    });
  });

  it('integration blocks ({% @integration/block %}, values over lines) and sized figures: public shapes, exact round trips', () => {
    // As GitBook's Git sync writes them: a Mermaid diagram's source in `content`, as is (quotes,
    // blank lines and fences included); a resized image as a figure with `width`.
    const page = [
      '{% @github-files/github-code-block url="https://github.com/org/repo/blob/main/index.js" %}',
      '',
      '{% @mermaid/diagram content="graph TD;\n    A["Start"] --> B["End"];\n\n```\nsubgraph x\n```" %}',
      '',
      '* In a list:',
      '  {% @mermaid/diagram content="graph LR\n    A --> B\n  " %}',
      '',
      '> {% @figma/embed fileId="abc" url="https://www.figma.com/file/abc" %}',
      '',
      '{% hint style="info" %}\n{% @mermaid/diagram content="sequenceDiagram\n  A->>B: hi" %}\n{% endhint %}',
      '',
      '<figure><img src=".gitbook/assets/a.png" alt="Sized" width="375"><figcaption><p>Sized</p></figcaption></figure>',
      '',
      '<figure><img src=".gitbook/assets/b.png" alt="" width="50%" height="120"><figcaption></figcaption></figure>',
      '',
      '<figure><picture><source srcset="dark.png" media="(prefers-color-scheme: dark)"><img src="light.png" alt="" width="300"></picture><figcaption></figcaption></figure>',
      '',
      '<figure><img src="c.png" alt="" width="auto" class="bordered"><figcaption></figcaption></figure>',
      '',
    ].join('\n');
    expect(roundTrip(page)).toBe(page);
    const { document } = markdownToDocument(page);
    // The public description's PlainObject has no `type: object`, so a string prop matches two
    // branches of its oneOf: props are checked here as what they are (strings, as written).
    const withoutProps = (nodes: DocumentNode[]): DocumentNode[] => nodes.map((n) => (n.object === 'text' ? n : {
      ...n, ...(n.type === 'integration' ? { data: { ...n.data, props: {} } } : {}), nodes: withoutProps(n.nodes),
    }) as DocumentNode);
    // The public model has integration blocks at the top level and in hints (not in lists or quotes).
    const publicPlaces = (document.nodes as ElementNode[]).filter((n) => n.type === 'integration' || n.type === 'hint' || n.type === 'images');
    expect(publicPlaces).toHaveLength(6);
    expect(violations(withoutProps(publicPlaces))).toEqual([]);
    const integrations = allElements(document.nodes).filter((n) => n.type === 'integration');
    expect(integrations.map((n) => n.data)).toEqual([
      { integration: 'github-files', block: 'github-code-block', props: { url: 'https://github.com/org/repo/blob/main/index.js' } },
      { integration: 'mermaid', block: 'diagram', props: { content: 'graph TD;\n    A["Start"] --> B["End"];\n\n```\nsubgraph x\n```' } },
      { integration: 'mermaid', block: 'diagram', props: { content: 'graph LR\n  A --> B\n' } },
      { integration: 'figma', block: 'embed', props: { fileId: 'abc', url: 'https://www.figma.com/file/abc' } },
      { integration: 'mermaid', block: 'diagram', props: { content: 'sequenceDiagram\n  A->>B: hi' } },
    ]);
    expect(integrations.every((n) => n.isVoid && Object.values(n.data!.props as object).every((v) => typeof v === 'string'))).toBe(true);
    const images = allElements(document.nodes).filter((n) => n.type === 'image');
    expect(images.map((n) => [n.data!.width, n.data!.height])).toEqual([[375, undefined], [{ value: 50, unit: '%' }, 120], [300, undefined]]);
    // An `<img>` saying more (a class, `width="auto"`) stays HTML, as written.
    expect(allElements(document.nodes).filter((n) => n.type === 'html').map((n) => n.data!.html))
      .toEqual(['<figure><img src="c.png" alt="" width="auto" class="bordered"><figcaption></figcaption></figure>']);
    // A document made through the API: a sized image without caption is still written as a figure.
    const sized: JSONDocument = { object: 'document', data: {}, nodes: [{ object: 'block', type: 'images', key: '', data: {}, nodes: [{ object: 'block', type: 'image', key: '', isVoid: true, data: { ref: { kind: 'url', url: 'https://x.example/a.png' }, width: 200 }, nodes: [] }] }] };
    expect(documentToMarkdown(sized)).toBe('<figure><img src="https://x.example/a.png" alt="" width="200"><figcaption></figcaption></figure>\n');
    // Past a parse chunk (8 KiB), a value over blank lines stays one tag.
    const filler = Array.from({ length: 300 }, (_, i) => `Paragraph ${i} of filler text.`).join('\n\n');
    const long = `${filler}\n\n{% @mermaid/diagram content="graph TB\nA --> B\n\n${'C --> D\n\n'.repeat(40)}E" %}\n\n${filler}\n`;
    expect(roundTrip(long)).toBe(long);
    expect(allElements(markdownToDocument(long).document.nodes).filter((n) => n.type === 'integration')).toHaveLength(1);
    // An integration tag that never closes is text, and costs the page no more than text.
    expect(allElements(markdownToDocument('{% @x/y content="a\n\nText.\n').document.nodes).map((n) => n.type)).toEqual(['paragraph', 'paragraph']);
  });

  it('inline HTML markdown cannot say, in rich table cells, figure captions and expandable titles, is kept as written', () => {
    // GitBook's icons in card titles, coloured text, keys, buttons, expressions and sized images
    // were read as emphasis, links or plain text (class, style and the element lost).
    const page = [
      '<table data-view="cards"><thead><tr><th></th><th data-hidden data-card-target data-type="content-ref"></th></tr></thead><tbody><tr><td><h4><i class="fa-bolt" style="color:$primary;">:bolt:</i> Quickstart</h4></td><td><a href="quickstart.md">quickstart.md</a></td></tr></tbody></table>',
      '',
      '<table><thead><tr><th>Key</th><th>Value</th></tr></thead><tbody><tr><td><kbd>Ctrl</kbd> + <kbd>C</kbd></td><td><mark style="color:red;">Red</mark> and <strong>bold</strong> <em>it</em></td></tr><tr><td>H<sub>2</sub>O</td><td><a href="https://example.com" class="button primary">Go</a> <a href="setup.md">Setup</a></td></tr><tr><td><code class="expression">space.vars.version</code> and <code>plain</code></td><td><img src=".gitbook/assets/a.png" alt="" width="40"> <span data-gb-custom-inline data-tag="emoji" data-code="1f600">😀</span></td></tr></tbody></table>',
      '',
      '<figure><img src="a.png" alt=""><figcaption><p><i class="fa-camera">:camera:</i> Photo by <mark style="color:blue;">me</mark></p></figcaption></figure>',
      '',
      '<details>',
      '',
      '<summary><i class="fa-gear">:gear:</i> Settings</summary>',
      '',
      'Body.',
      '',
      '</details>',
      '',
    ].join('\n');
    expect(roundTrip(page)).toBe(page);
    const { document } = markdownToDocument(page);
    const cells = allElements(document.nodes).filter((n) => n.type === 'table-cell');
    // A cell's text and HTML stay one paragraph: the links and the plain code keep their markdown form.
    expect(cells[9]!.nodes.map((n) => (n as ElementNode).type)).toEqual(['paragraph']);
    expect(allElements(cells[9]!.nodes).map((n) => n.type)).toEqual(['paragraph', 'html', 'link']);
    expect(allElements(cells[3]!.nodes).find((n) => n.type === 'link')!.data).toEqual({ ref: { kind: 'page', page: 'quickstart.md' } });
    expect(allElements(document.nodes).filter((n) => n.type === 'html').map((n) => n.data!.html)).toEqual([
      '<i class="fa-bolt" style="color:$primary;">:bolt:</i>', '<kbd>Ctrl</kbd>', '<kbd>C</kbd>', '<mark style="color:red;">Red</mark>',
      '<sub>2</sub>', '<a href="https://example.com" class="button primary">Go</a>', '<code class="expression">space.vars.version</code>',
      '<img src=".gitbook/assets/a.png" alt="" width="40">', '<span data-gb-custom-inline data-tag="emoji" data-code="1f600">😀</span>',
      '<i class="fa-camera">:camera:</i>', '<mark style="color:blue;">me</mark>', '<i class="fa-gear">:gear:</i>',
    ]);
    // The sized image in a cell is listed like any raw HTML image, so Git import resolves it.
    expect(allElements(document.nodes).find((n) => n.type === 'html' && String(n.data!.html).startsWith('<img'))!.data!.images)
      .toEqual([{ src: '.gitbook/assets/a.png', ref: { kind: 'file', file: '.gitbook/assets/a.png' } }]);
  });

  it('the rich page prints back to the same markdown', () => {
    const { document, frontmatter } = markdownToDocument(rich);
    const canonical = documentToMarkdown(document, frontmatter);
    expect(roundTrip(canonical)).toBe(canonical);
    // Captions stay exactly as written: figures as figures, a block image's title as a figure.
    expect(canonical).toContain('<figure><img src=".gitbook/assets/c.png" alt="C"><figcaption><p>The caption</p></figcaption></figure>\n<figure><img src=".gitbook/assets/d.png" alt=""><figcaption></figcaption></figure>');
    expect(canonical).toContain('<figure><img src="https://cdn.example.com/t.png" alt="titled"><figcaption><p>Title as caption</p></figcaption></figure>');
    expect(canonical).toContain('![icon](icon.png "Icon caption")');
  });

  it('prints captions of API documents: caption fragments with rich text, and data.caption of documents stored before', () => {
    const image = (extra: Partial<ElementNode>): ElementNode => ({
      object: 'block', type: 'image', key: '', data: { ref: { kind: 'file', file: 'a.png' }, alt: 'A' }, nodes: [], isVoid: true, ...extra,
    });
    const document: JSONDocument = {
      object: 'document',
      data: {},
      nodes: [
        {
          object: 'block', type: 'images', key: '', data: {}, isVoid: false,
          nodes: [
            image({
              fragments: [{
                object: 'fragment', fragment: 'caption',
                nodes: [{ object: 'block', type: 'paragraph', key: '', nodes: [{ object: 'text', leaves: [
                  { object: 'leaf', text: 'Rich ', marks: [] }, { object: 'leaf', text: 'caption', marks: [{ object: 'mark', type: 'bold' }] },
                ] }] }],
              }],
            }),
          ],
        },
        { object: 'block', type: 'images', key: '', data: {}, nodes: [image({ data: { ref: { kind: 'file', file: 'b.png' }, caption: 'Stored before' } })] },
      ],
    };
    expect(violations(document.nodes.slice(0, 1))).toEqual([]);
    expect(documentToMarkdown(document)).toBe(
      '<figure><img src="a.png" alt="A"><figcaption><p>Rich <strong>caption</strong></p></figcaption></figure>\n\n<figure><img src="b.png" alt=""><figcaption><p>Stored before</p></figcaption></figure>\n',
    );
  });
});

describe('evaluating variables (shared/content/evaluate.ts) reaches every block of the model', () => {
  const VARIABLE_BLOCKS = `{% swagger method="post" path="/pets" summary="Create a {{ space.vars.product }} pet" %}
{% swagger-description %}
Creates a {{ space.vars.product }} pet.
{% endswagger-description %}

{% swagger-parameter in="body" name="name" type="string" required="true" %}
Name in {{ space.vars.product }}
{% endswagger-parameter %}
{% endswagger %}

<details>

<summary>About {{ space.vars.product }}</summary>

Body of {{ page.vars.owner }}.

</details>

<table><thead><tr><th>A</th></tr></thead><tbody><tr><td><p>Cell {{ space.vars.product }}</p><pre><code>x
y</code></pre></td></tr></tbody></table>

{% tabs %}
{% tab title="{{ space.vars.product }} tab" %}
In a tab.
{% endtab %}
{% endtabs %}

{% updates format="full" %}
{% update date="2024-01-01" %}
## Release of {{ space.vars.product }}
{% endupdate %}
{% endupdates %}

{% columns %}
{% column %}
Column {{ space.vars.product }}
{% endcolumn %}
{% endcolumns %}

{% embed url="https://example.com" %}
Caption [{{ space.vars.product }}](https://example.com)
{% endembed %}

{% if space.vars.product == "{{ space.vars.product }}" %}
If {{ space.vars.product }}
{% endif %}
`;

  it('text in swagger parts, expandable titles and bodies, rich table cells, tabs, updates, columns, captions and ifs', () => {
    const { document } = markdownToDocument(VARIABLE_BLOCKS);
    const evaluated = evaluateDocument(document as unknown as StoredDocument, { space: { product: 'Widget' }, page: { owner: 'Ada' } });
    const all = (nodes: ElementNode[]): ElementNode[] => nodes.flatMap((n) => [n, ...all((n.nodes ?? []).filter((c): c is ElementNode => c.object !== 'text')), ...(n.fragments ?? []).flatMap((f) => all(f.nodes as ElementNode[]))]);
    const blocks = all(evaluated.nodes as unknown as ElementNode[]);
    const byType = (type: string) => blocks.filter((b) => b.type === type);
    // Every text a reader sees is evaluated...
    for (const type of ['swagger-description', 'swagger-parameter', 'table-cell', 'update', 'column', 'if']) {
      expect(byType(type).length, type).toBeGreaterThan(0);
      for (const b of byType(type)) expect(blockText(b), type).not.toContain('{{');
    }
    expect(byType('swagger')[0]!.data?.summary).toBe('Create a Widget pet');
    expect(byType('tabs-item')[0]!.data?.title).toBe('Widget tab');
    const expandable = byType('expandable')[0]!;
    expect(expandable.fragments!.map((f) => f.nodes.map((n) => blockText(n as ElementNode)).join())).toEqual(['About Widget', 'Body of Ada.']);
    expect(blockText(byType('table-cell').at(-1)!)).toBe('Cell Widget\nx\ny');
    const embed = byType('embed')[0]!;
    expect(embed.data?.caption).toBe('Caption Widget');
    expect(blockText(embed.fragments![0]!.nodes[0] as ElementNode)).toBe('Caption Widget');
    // ...an if's condition is code, not text: kept as written.
    expect(byType('if')[0]!.data?.expression).toContain('{{ space.vars.product }}');
    expect(JSON.stringify(evaluated).match(/\{\{[^}]*\}\}/g)).toEqual(['{{ space.vars.product }}']);
  });
});

describe('swagger blocks matched to stored OpenAPI specs (shared/content/openapi-specs.ts)', () => {
  it('by source URL or by slug; other blocks and unknown sources are left as written', () => {
    const { document } = markdownToDocument('{% openapi src="https://api.example.com/openapi.json" path="/a" method="get" %}\n{% endopenapi %}\n\n{% swagger src="petstore" path="/b" method="post" %}\n{% endswagger %}\n\n{% swagger src="https://other.example.com/x.json" path="/c" method="get" %}\n{% endswagger %}\n');
    const linked = linkOpenAPISpecs(document as unknown as StoredDocument, [{ slug: 'public-api', sourceURL: 'https://api.example.com/openapi.json' }, { slug: 'petstore' }]);
    const refs = (linked.nodes as unknown as ElementNode[]).map((n) => n.data?.ref);
    expect(refs).toEqual([{ kind: 'openapi', spec: 'public-api' }, { kind: 'openapi', spec: 'petstore' }, { kind: 'url', url: 'https://other.example.com/x.json' }]);
    expect((linked.nodes[0] as unknown as ElementNode).data?.sourceRef).toEqual({ kind: 'url', url: 'https://api.example.com/openapi.json' });
    // The stored document is not changed.
    expect((document.nodes[0] as ElementNode).data?.ref).toEqual({ kind: 'url', url: 'https://api.example.com/openapi.json' });
  });
});
