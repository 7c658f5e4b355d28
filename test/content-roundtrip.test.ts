// Content fidelity (issue 16): every construct of the fixture corpus (test/fixtures/content-corpus)
// survives import and export. The property: source -> import -> export -> import -> export gives
// two identical exports and the source's document; then, over HTTP, a Git import, an edit through
// the API, edit-and-export and a fresh export lose nothing, and `format=markdown` reads print
// exactly the exported files.
import { beforeAll, describe, expect, it } from 'vitest';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { toHtml } from 'hast-util-to-html';
import { markdownToDocument, documentSections } from '../shared/content/markdown/index.ts';
import { documentLinks } from '../shared/content/markdown/links.ts';
import { emptyManifest, type ManifestPage, type StoredDocument } from '../shared/content/types.ts';
import { renderPdf } from '../shared/content/pdf/index.ts';
import { renderDocument } from '../shared/reader/document.ts';
import { segmentDocument } from '../shared/translate/segments.ts';
import { parsePageFile, printPageFile, type IdPaths, type PathResolver } from '../shared/git/pages.ts';
import { newOrg, useTestApi, type TestOrg } from './support/api.ts';
import { createOpenAPISpec, createSpace } from './support/factories.ts';
import { publishedSite } from './support/reader-site.ts';
import { cloneBranch, createRepo, useGitServer } from './support/git-server.ts';
import { filesOf, settleGit } from './support/git-sync.ts';
import { readPdf } from './support/pdf-text.ts';

const CORPUS = path.join(import.meta.dirname, 'fixtures/content-corpus');

const corpusFiles = (dir = CORPUS) => filesOf(dir);

type Node = { type?: string; data?: Record<string, unknown>; nodes?: Node[]; fragments?: { fragment: string; nodes: Node[] }[] };
function allBlocks(nodes: Node[] = []): Node[] {
  return nodes.flatMap((n) => [n, ...allBlocks(n.nodes), ...(n.fragments ?? []).flatMap((f) => allBlocks(f.nodes))]);
}

const withoutKeys = (value: unknown): unknown =>
  Array.isArray(value) ? value.map(withoutKeys)
    : value && typeof value === 'object' ? Object.fromEntries(Object.entries(value).filter(([k]) => k !== 'key').map(([k, v]) => [k, withoutKeys(v)])) : value;

describe('round-trip property on the fixture corpus (import -> export -> import -> export)', () => {
  let files: Map<string, Buffer>;
  const paths: IdPaths = { pages: new Map(), files: new Map(), includes: new Map() };
  const resolver: PathResolver = {
    page: (p) => (paths.pages.has(`page:${p}`) ? `page:${p}` : undefined),
    file: (p) => (paths.files.has(`file:${p}`) ? `file:${p}` : undefined),
    include: (p) => (paths.includes.has(`include:${p}`) ? `include:${p}` : undefined),
  };
  const pages = () => [...files.keys()].filter((p) => p.endsWith('.md') && p !== 'SUMMARY.md' && !p.startsWith('.gitbook/'));

  beforeAll(async () => {
    files = await corpusFiles();
    for (const p of files.keys()) {
      if (p.startsWith('.gitbook/assets/')) paths.files.set(`file:${p}`, p);
      else if (p.startsWith('.gitbook/includes/')) paths.includes.set(`include:${p}`, p);
      else if (p.endsWith('.md') && p !== 'SUMMARY.md') paths.pages.set(`page:${p}`, p);
    }
  });

  const roundTrip = async (p: string) => {
    const source = files.get(p)!.toString();
    const first = await parsePageFile(source, p, resolver);
    const export1 = printPageFile({ title: first.title, ...first.metadata }, first.document, p, paths);
    const second = await parsePageFile(export1, p, resolver);
    const export2 = printPageFile({ title: second.title, ...second.metadata }, second.document, p, paths);
    const third = await parsePageFile(export2, p, resolver);
    return { source, first, second, third, export1, export2 };
  };

  it('every page: the two exports are identical and the document is the source\'s', async () => {
    expect(pages().length).toBeGreaterThanOrEqual(7);
    for (const p of pages()) {
      const { first, second, third, export1, export2 } = await roundTrip(p);
      expect(export2, p).toBe(export1);
      // Equal to the source's document (block keys hash the written form, e.g. `dir/` vs `dir/README.md`)...
      expect(withoutKeys(second.document), p).toEqual(withoutKeys(first.document));
      // ...and from the first export on, equal keys and all.
      expect(third.document, p).toEqual(second.document);
      expect(second.title, p).toBe(first.title);
      expect(second.metadata, p).toEqual(first.metadata);
    }
  });

  it('every construct of the issue is a real block or field, and prints back', async () => {
    const guide = await roundTrip('guide/README.md');
    // Headings 4 to 6 keep their level, in a hint too.
    expect(guide.export1).toContain('{% hint style="info" %}\n#### This is a heading\n');
    expect(guide.export1).toContain('\n##### Option 1\n');
    expect(guide.export1).toContain('\n###### Option 2\n');
    expect(allBlocks(guide.first.document.nodes as Node[]).map((b) => b.type)).toEqual(expect.arrayContaining(['heading-4', 'heading-5', 'heading-6']));
    // Every frontmatter key, a string cover included, and the formatted title.
    for (const line of ['title: Getting started with the CLI', 'cover: .gitbook/assets/hero (1).png', 'coverY: 0', 'coverHeight: 320', 'tags:\n  - setup', 'metadata:\n  owner: docs-team', 'description: Install the tool and run it.']) {
      expect(guide.export1).toContain(line);
    }
    expect(guide.export1).toContain('# Getting started with the `docs` CLI\n');
    // Mentions, fence words, escaped tags, a table after a paragraph in a list (fixed point).
    expect(guide.export1).toContain('[mention](mac-osx.md "mention")');
    expect(guide.export1).toContain('```javascript copy\n');
    // Integration blocks and a resized figure print back as written.
    expect(guide.export1).toContain('\n{% @mermaid/diagram content="graph TD;\n    A["Install"] --> B["Run"];\n\n    B --> C" %}\n');
    expect(guide.export1).toContain('<figure><img src="../.gitbook/assets/hero (1).png" alt="The CLI" width="375"><figcaption><p>The CLI at work</p></figcaption></figure>');
    expect(guide.export1).toContain('\\{%customer.name%}');
    expect(guide.export1).toContain('   Run this:\n\n   | Flag | Meaning |');

    const readme = await roundTrip('README.md');
    expect(readme.export1).toContain('[#troubleshooting](guide/mac-osx.md#troubleshooting "mention")');
    expect(readme.export1).toContain('[x](guide/configuring-iframe-auth/README.md "mention")');

    const mac = await roundTrip('guide/mac-osx.md');
    const images = allBlocks(mac.first.document.nodes as Node[]).filter((b) => b.type === 'image');
    // Entities in a figure's src are decoded, so the path resolves to the file.
    expect(images[0]!.data!.ref).toEqual({ kind: 'file', file: "file:.gitbook/assets/Don't (1).jpg" });
    expect(images[1]!.data!.ref).toEqual({ kind: 'url', url: 'https://files.example.com/o/a.png?alt=media&token=abc' });
    expect(images[2]!.data).toMatchObject({ ref: { kind: 'file', file: 'file:.gitbook/assets/light.png' }, refDark: { kind: 'file', file: 'file:.gitbook/assets/dark.png' } });
    expect(mac.export1).toContain('<figcaption><p>What <strong>not</strong> to do, see <a href="../README.md">the welcome page</a></p></figcaption>');
    expect(mac.export1).toContain('<picture><source srcset="../.gitbook/assets/dark.png" media="(prefers-color-scheme: dark)"><img src="../.gitbook/assets/light.png" alt="Screen"></picture>');
    expect(mac.export1).toContain('Watch the [installation video](https://example.com/video)');
    // Raw HTML images (GitBook's drawings and sized images): the HTML as written, its relative
    // sources resolved to the files like markdown images, printed back as the same paths...
    const htmls = allBlocks(mac.first.document.nodes as Node[]).filter((b) => b.type === 'html');
    expect(htmls.map((b) => b.data!.images)).toEqual([
      [{ src: '../.gitbook/assets/drawing.svg', ref: { kind: 'file', file: 'file:.gitbook/assets/drawing.svg' } }],
      [{ src: '../.gitbook/assets/drawing.svg', ref: { kind: 'file', file: 'file:.gitbook/assets/drawing.svg' } }],
      [{ src: '../.gitbook/assets/light.png', ref: { kind: 'file', file: 'file:.gitbook/assets/light.png' } }],
      // The buttons of a paragraph (inline HTML: two opening and two closing tags), then an HTML block of buttons.
      undefined, undefined, undefined, undefined, undefined,
    ]);
    // Raw HTML links (GitBook's buttons) the same way: relative targets listed as refs to the
    // pages (an in-page anchor and a URL mean the same on every page and stay as written).
    expect(htmls.map((b) => b.data!.links)).toEqual([
      undefined, undefined, undefined,
      [{ href: 'README.md#options', ref: { kind: 'anchor', anchor: 'options', page: 'page:guide/README.md' } }], undefined,
      [{ href: 'configuring-iframe-auth/README.md', ref: { kind: 'page', page: 'page:guide/configuring-iframe-auth/README.md' } }], undefined,
      [{ href: '../README.md', ref: { kind: 'page', page: 'page:README.md' } }],
    ]);
    // Link checking and backlinks see them as the pages' links.
    expect(documentLinks(mac.first.document as never).filter((l) => l.kind === 'page').map((l) => l.target)).toEqual([
      'page:README.md', 'page:README.md', 'page:guide/README.md#options', 'page:guide/configuring-iframe-auth/README.md', 'page:README.md',
    ]);
    expect(mac.export1).toContain('\nStill stuck? <a href="README.md#options" class="button primary">See the options</a> or <a href="configuring-iframe-auth/README.md" class="button secondary">Iframe auth</a>.\n');
    expect(mac.export1).toContain('\n<div align="center"><a href="../README.md" class="button primary">Back to the welcome page</a> <a href="https://example.com/support" class="button secondary">Support</a> <a href="#troubleshooting">Top</a></div>\n');
    expect(mac.export1).toContain('\n<img src="../.gitbook/assets/drawing.svg" alt="Install flow">\n');
    expect(mac.export1).toContain('\n<div align="center"><img src="../.gitbook/assets/drawing.svg" alt="Install flow, centred" width="240"></div>\n');
    expect(mac.export1).toContain('The light theme <img src="../.gitbook/assets/light.png" alt="" data-size="line"> is the default.');
    // ...and as the new relative path when the page moves (only `src` changes).
    const moved = printPageFile({ title: mac.first.title }, mac.first.document, 'guide/more/mac-osx.md', paths);
    expect(moved).toContain('<div align="center"><img src="../../.gitbook/assets/drawing.svg" alt="Install flow, centred" width="240"></div>');
    expect(moved).toContain('The light theme <img src="../../.gitbook/assets/light.png" alt="" data-size="line"> is the default.');
    expect(moved).toContain('Still stuck? <a href="../README.md#options" class="button primary">See the options</a> or <a href="../configuring-iframe-auth/README.md" class="button secondary">Iframe auth</a>.');
    expect(moved).toContain('<div align="center"><a href="../../README.md" class="button primary">Back to the welcome page</a> <a href="https://example.com/support" class="button secondary">Support</a> <a href="#troubleshooting">Top</a></div>');

    const auth = await roundTrip('guide/configuring-iframe-auth/README.md');
    const authBlocks = allBlocks(auth.first.document.nodes as Node[]);
    expect(authBlocks.find((b) => b.type === 'if')!.data).toEqual({ expression: 'visitor.claims.unsigned.beta' });
    expect(authBlocks.find((b) => b.type === 'content-ref')!.data).toEqual({ ref: { kind: 'page', page: 'page:guide/mac-osx.md' } });
    const expandables = authBlocks.filter((b) => b.type === 'expandable');
    expect(expandables).toHaveLength(2);
    expect(expandables[0]!.fragments!.map((f) => f.fragment)).toEqual(['expandable-title', 'expandable-body']);
    expect(expandables[1]!.data).toEqual({ defaultExpanded: true });
    expect(auth.export1).toContain('<summary>How does it <code>work</code>?</summary>');
    expect(auth.export1).toContain('---\nicon: lock\nname: iframe-auth\n---');
    expect(auth.export1).not.toContain('# Configuring iframe auth\n\n# Configuring');

    const api = await roundTrip('reference/api.md');
    const apiBlocks = allBlocks(api.first.document.nodes as Node[]);
    expect(apiBlocks.filter((b) => b.type === 'swagger')).toHaveLength(3);
    expect(apiBlocks.find((b) => b.type === 'swagger')!.data).toMatchObject({ ref: { kind: 'file', file: 'file:.gitbook/assets/openapi.yaml' }, path: '/pets', method: 'get' });
    expect(apiBlocks.find((b) => b.type === 'openapi-operation')!.data).toEqual({ path: '/pets', method: 'get', ref: { kind: 'openapi', spec: 'petstore' } });
    expect(apiBlocks.map((b) => b.type)).toEqual(expect.arrayContaining(['swagger-description', 'swagger-parameter', 'swagger-response']));
    expect(api.export1).toContain('{% openapi src="https://petstore.example.com/v3/openapi.json" path="/pets/{id}" method="delete" %}');

    const blocks = await roundTrip('reference/blocks.md');
    const all = allBlocks(blocks.first.document.nodes as Node[]);
    expect(all.map((b) => b.type)).toEqual(expect.arrayContaining(['prompt', 'columns', 'column', 'table', 'reusable-content']));
    const [cards, rich] = all.filter((b) => b.type === 'table');
    expect(cards!.data!.view).toEqual({ type: 'cards' });
    // A card title's icon stays GitBook's `<i class="fa-...">` (it was read as emphasis).
    expect(blocks.export1).toContain('<td><i class="fa-download">:download:</i> <strong>Install</strong></td>');
    // The multi-line code of a rich cell keeps its blank line.
    const code = allBlocks(rich!.nodes).find((b) => b.type === 'code')!;
    expect(code.data).toEqual({ syntax: 'bash' });
    expect(code.nodes!.length).toBe(3);
    expect(blocks.export1).toContain('<code class="language-bash">docs list\n\ndocs list --all\n</code>');

    // Math as GitBook writes it: `$$` fences are a math block, `$$x$$` in text inline math; a single `$` stays text.
    expect(all.find((b) => b.type === 'math')!.data).toEqual({ formula: 'f(x) = x \\cdot e^{2 \\pi i \\xi x}' });
    const identity = all.find((b) => b.type === 'paragraph' && JSON.stringify(b).includes('inline-math'))!;
    expect((identity.nodes as Node[]).map((n) => n.type ?? 'text')).toEqual(['text', 'inline-math', 'text']);
    expect(identity.nodes![1]!.data).toEqual({ formula: 'a^2 + b^2 = c^2' });
    expect(blocks.export1).toContain('\n$$\nf(x) = x \\cdot e^{2 \\pi i \\xi x}\n$$\n');
    expect(blocks.export1).toContain('The identity $$a^2 + b^2 = c^2$$ holds for right triangles; a price of $5 stays text.');

    const changelog = await roundTrip('reference/changelog.md');
    const updates = allBlocks(changelog.first.document.nodes as Node[]).filter((b) => b.type === 'update');
    expect(updates.map((u) => u.data)).toEqual([{ date: '2024-05-01' }, { date: '2024-04-01' }]);
  });
});

describe('the new blocks in the reader, search, PDF and translations', () => {
  let document: StoredDocument;
  beforeAll(async () => {
    const files = await corpusFiles();
    const nodes = ['guide/README.md', 'guide/configuring-iframe-auth/README.md', 'reference/api.md', 'reference/blocks.md', 'reference/changelog.md']
      .flatMap((p) => markdownToDocument(files.get(p)!.toString()).document.nodes);
    document = { object: 'document', data: {}, nodes };
  });

  it('the reader renders them', async () => {
    const page = { id: 'p', title: 'P', slug: 'p', type: 'document', pages: [] } as unknown as ManifestPage;
    const rendered = await renderDocument(document, {
      manifest: emptyManifest(), current: { page, ancestors: [], path: 'p' } as never, pageHref: (p: string) => `/${p}`, fileHref: () => '#',
    } as Parameters<typeof renderDocument>[1]);
    const html = toHtml(rendered.nodes);
    expect(html).toContain('<h5 id="this-is-a-heading">');
    expect(html).toContain('<h6 id="option-1">');
    // A plain <details> (the reader's choice: the browser gives it its behaviour).
    expect(html).toMatch(/<details><summary>How does it <code>work<\/code>\?<\/summary><p>The frame gets a signed token.<\/p>/);
    expect(html).toContain('<details open><summary>Open by default</summary>');
    expect(html).toContain('<div class="columns"><div class="column"><p>Left column.</p></div>');
    expect(html).toContain('<span class="openapi-method">POST</span> <code class="openapi-path">/pets</code>');
    expect(html).toContain('<p>Creates a pet in the store.</p>');
    expect(html).toContain('<time datetime="2024-05-01">2024-05-01</time>');
    expect(html).toContain('<p class="prompt-description">Summarise this page</p>');
    // Content behind a visitor condition stays hidden without claims (fail closed).
    expect(html).not.toContain('Only beta readers');
  });

  it('search indexes their text, deep headings as sections', () => {
    const sections = documentSections(document as never);
    expect(sections.map((s) => s.title)).toEqual(expect.arrayContaining(['This is a heading', 'Option 1', 'Option 2', 'Version 2']));
    const text = sections.map((s) => s.body).join('\n');
    for (const words of ['The frame gets a signed token', 'How does it work?', 'Creates a pet in the store', 'post /pets Create a pet', 'Left column.', 'Summarise this page', 'docs list\n\ndocs list --all', 'Only beta readers see this.']) {
      expect(text).toContain(words);
    }
  });

  it('the PDF prints them', async () => {
    const bytes = await renderPdf({
      title: 'Corpus', date: new Date('2024-01-01T00:00:00Z'),
      pages: [{ page: { id: 'p', title: 'Corpus', slug: 'p', type: 'document', pages: [] } as unknown as ManifestPage, ancestors: [], document }],
      context: { pageTitle: () => undefined, fileName: () => undefined },
    });
    const text = (await readPdf(bytes)).text.replace(/\s+/g, ' ').replace(/ ([?.])/g, '$1');
    for (const words of ['This is a heading', 'How does it work?', 'The frame gets a signed token', 'POST /pets Create a pet', 'Creates a pet in the store', '2024-05-01', 'Shown when: visitor.claims.unsigned.beta', 'Left column.']) {
      expect(text).toContain(words);
    }
  });

  it('translations get their text and keep their structure', () => {
    const segmented = segmentDocument(document);
    const sent = segmented.segments.filter((s) => s.translatable).map((s) => s.html).join('\n');
    for (const words of ['This is a heading', 'How does it', 'The frame gets a signed token', 'Creates a pet in the store', 'Left column.', 'Adds ']) expect(sent).toContain(words);
    expect(sent).not.toContain('visitor.claims');
    const rebuilt = segmented.rebuild(segmented.segments.map((s) => s.html.toUpperCase()));
    const types = (nodes: unknown[]): string[] => (nodes as Node[]).flatMap((n) => [String(n.type), ...types(n.nodes ?? []), ...(n.fragments ?? []).flatMap((f) => types(f.nodes))]);
    expect(types(rebuilt.nodes)).toEqual(types(document.nodes));
    expect(JSON.stringify(rebuilt)).toContain('THE FRAME GETS A SIGNED TOKEN');
    expect(JSON.stringify(rebuilt)).toContain('"expression":"visitor.claims.unsigned.beta"');
  });
});

describe('Git import, edit through the API, export, and markdown reads (HTTP)', () => {
  const api = useTestApi();
  const server = useGitServer();
  let org: TestOrg;
  beforeAll(async () => {
    org = await newOrg();
  });

  const settle = (spaceId: string) => settleGit(api, org.admin.token, spaceId);
  const sync = async (spaceId: string, kind: 'import' | 'export', body: Record<string, unknown>) => {
    const res = await api.request('POST', `/spaces/${spaceId}/git/${kind}`, { token: org.admin.token, body: { ref: 'refs/heads/main', ...(kind === 'export' ? { commitMessage: 'Export' } : {}), ...body } });
    expect(res.status).toBe(204);
    const info = await settle(spaceId);
    expect(info.operations.last.status).toBe('succeeded');
  };
  type Page = { id: string; title: string; type: string; pages: Page[] };
  const flat = (pages: Page[]): Page[] => pages.flatMap((p) => [p, ...flat(p.pages)]);

  it('a page path with . or .. segments is refused, naming the field', async () => {
    const spaceId = (await createSpace(api, org)).id;
    for (const path of ['..%2F..%2Fetc%2Fpasswd', 'a%2F.%2Fb', 'guide%2F..']) {
      const res = await api.request('GET', `/spaces/${spaceId}/content/path/${path}`, { token: org.admin.token });
      expect(res.status, path).toBe(400);
      expect(res.body.error.message, path).toMatch(/^pagePath: /);
    }
    expect((await api.request('GET', `/spaces/${spaceId}/content/path/no-such-page`, { token: org.admin.token })).status).toBe(404);
  });

  it('edit-and-export and a fresh export keep every construct; markdown reads equal the exported files', async () => {
    const source = Object.fromEntries(await corpusFiles());
    const name = `corpus-${Date.now()}`;
    await createRepo(server, name, source);
    const url = `${server.url}/${name}.git`;
    const spaceId = (await createSpace(api, org)).id;
    await sync(spaceId, 'import', { url });
    const pages = flat((await api.request('GET', `/spaces/${spaceId}/content/pages`, { token: org.admin.token })).body.pages);
    const groups = pages.filter((p) => p.type === 'group').map((p) => p.title);
    expect(groups).toEqual(['Guides', 'Reference']);
    // A group's SUMMARY anchor is its slug; a file listed twice keeps both entries (the second a link to the file).
    expect(pages.find((p) => p.title === 'Reference')).toMatchObject({ slug: 'api-reference' });
    expect(pages.find((p) => p.title === 'Mac OS X, listed again')).toMatchObject({ type: 'link', href: 'guide/mac-osx.md' });
    const guide = pages.find((p) => p.title === 'Getting started')!;
    const iframe = pages.find((p) => p.title === 'Configuring iframe auth')!;

    // Every document reads through the API (checked against the public contract, extension blocks aside).
    const documents = new Map<string, { nodes: Node[] }>();
    for (const page of pages.filter((p) => p.type === 'document')) {
      const read = await api.request('GET', `/spaces/${spaceId}/content/page/${page.id}`, { token: org.admin.token });
      expect(read.status, page.title).toBe(200);
      documents.set(page.id, read.body.document);
    }
    expect(allBlocks(documents.get(guide.id)!.nodes).map((b) => b.type)).toContain('heading-5');
    // GitBook's integration blocks (a Mermaid diagram's source over several lines) and resized figures.
    expect(allBlocks(documents.get(guide.id)!.nodes).find((b) => b.type === 'integration')!.data).toEqual({
      integration: 'mermaid', block: 'diagram', props: { content: 'graph TD;\n    A["Install"] --> B["Run"];\n\n    B --> C' },
    });
    expect(allBlocks(documents.get(guide.id)!.nodes).find((b) => b.type === 'image' && b.data!.alt === 'The CLI')!.data).toMatchObject({ width: 375 });

    // Edits in the app: the guide renamed, given a new description and one paragraph's text
    // changed in its document; the iframe page edited as markdown (its `format=markdown` read,
    // one word changed): its file is printed again from its document.
    const guideDocument = structuredClone(documents.get(guide.id)!) as { nodes: (Node & { nodes?: { leaves?: { text: string }[] }[] })[] };
    const paragraph = allBlocks(guideDocument.nodes).find((b) => b.type === 'paragraph' && JSON.stringify(b).includes('"Use the defaults."'))! as { nodes: { leaves: { text: string }[] }[] };
    paragraph.nodes[0]!.leaves[0]!.text = 'Use the defaults here.';
    const iframeMarkdown = (await api.request('GET', `/spaces/${spaceId}/content/page/${iframe.id}?format=markdown`, { token: org.admin.token })).body.markdown as string;
    expect(iframeMarkdown).toContain('name: iframe-auth');
    // An integration block reads back as GitBook wrote it (a markdown edit keeps it: the export below).
    expect(iframeMarkdown).toContain('\n{% @github-files/github-code-block url="https://github.com/org/docs-cli/blob/main/src/auth.js" %}\n');
    const cr = (await api.request('POST', `/spaces/${spaceId}/change-requests`, { token: org.admin.token, body: { subject: 'Edit' } })).body;
    const edit = await api.request('POST', `/spaces/${spaceId}/change-requests/${cr.id}/content`, { token: org.admin.token, body: { changes: [
      { operation: 'update_page', page: guide.id, title: 'Getting started now', description: 'Install the tool and run it today.', document: { document: { object: 'document', data: (guideDocument as { data?: unknown }).data, nodes: guideDocument.nodes } } },
      { operation: 'update_page', page: iframe.id, document: { markdown: iframeMarkdown.replace('signed token', 'short-lived signed token') } },
    ] } });
    expect(edit.status, JSON.stringify(edit.body)).toBe(200);
    expect((await api.request('POST', `/spaces/${spaceId}/change-requests/${cr.id}/merge`, { token: org.admin.token })).status).toBe(200);

    // Edit-and-export: only the edited page changes, and it changes by the edit alone.
    await sync(spaceId, 'export', { url, ref: 'refs/heads/edited' });
    const editedDir = await cloneBranch(server, name, 'edited');
    try {
      const exported = await corpusFiles(editedDir);
      for (const [file, bytes] of Object.entries(source)) {
        if (file === 'guide/README.md' || file === 'guide/configuring-iframe-auth/README.md' || file === 'SUMMARY.md') continue;
        expect(exported.get(file)?.equals(bytes as Buffer), file).toBe(true);
      }
      // The table of contents: the rename alone (and the documented normalisation of an anchor equal to its title's slug).
      expect(exported.get('SUMMARY.md')!.toString()).toBe((source['SUMMARY.md'] as Buffer).toString()
        .replace('[Getting started]', '[Getting started now]').replace(' <a href="#guides" id="guides"></a>', ''));
      // The markdown edit through the API kept every frontmatter key, the title and every block.
      expect(exported.get('guide/configuring-iframe-auth/README.md')!.toString())
        .toBe(iframeMarkdown.replace('signed token', 'short-lived signed token'));
      // Printed again, the page says everything its file said (only the documented escape differs).
      const edited = exported.get('guide/README.md')!.toString();
      const frontmatter = /^---\n[\s\S]*?\n---\n/;
      const sourceText = (source['guide/README.md'] as Buffer).toString();
      expect(edited.replace(frontmatter, '')).toBe(sourceText.replace(frontmatter, '').replace('\\{%customer.name%\\}', '\\{%customer.name%}').replace('Use the defaults.', 'Use the defaults here.'));
      expect(edited.match(frontmatter)![0].split('\n').sort()).toEqual(sourceText.match(frontmatter)![0].replace('run it.', 'run it today.').split('\n').sort());
    } finally {
      await rm(editedDir, { recursive: true, force: true });
    }

    // The published site: its markdown exports print links as site URLs, never ids, and a
    // swagger block naming a stored OpenAPI spec (by source URL) renders from that spec.
    expect((await createOpenAPISpec(api, org, `petstore-${Date.now()}`, { url: 'https://petstore.example.com/v3/openapi.json' })).slug).toMatch(/^petstore-/);
    const site = await publishedSite(api, org, [spaceId]);
    const located = flat((await api.request('GET', `/spaces/${spaceId}/content/pages`, { token: org.admin.token })).body.pages) as (Page & { path: string })[];
    const pathOf = (title: string) => located.find((p) => p.title === title)!.path;
    const apiHtml = await (await fetch(`${site.url}/${pathOf('API')}`)).text();
    expect(apiHtml).toMatch(/<span class="openapi-spec">petstore-\d+<\/span>/);
    // Raw HTML images of the Git import are served like markdown images: the file's stable URL,
    // its size unless the author gave one, lazy; the SVG drawing shows as an image.
    const macHtml = await (await fetch(`${site.url}/${pathOf('Mac OS X')}`)).text();
    const fileUrl = `/s/${site.id}/~files/[0-9a-f]{64}/drawing\\.svg`;
    expect(macHtml).toMatch(new RegExp(`<img width="320" height="160" loading="lazy" decoding="async" src="${fileUrl}" alt="Install flow">`));
    expect(macHtml).toMatch(new RegExp(`<div><img loading="lazy" decoding="async" src="${fileUrl}" alt="Install flow, centred" width="240"></div>`));
    expect(macHtml).toMatch(new RegExp(`The light theme <img width="1" height="1" loading="lazy" decoding="async" src="/s/${site.id}/~files/[0-9a-f]{64}/light\\.png" alt=""> is the default.`));
    // Raw HTML links (buttons) lead to the pages' URLs on the site, as markdown links do; the
    // in-page anchor and the URL stay as written.
    expect(macHtml).toContain(`Still stuck? <a href="/s/${site.id}/${pathOf('Getting started now')}#options" class="button primary">See the options</a> or <a href="/s/${site.id}/${pathOf('Configuring iframe auth')}" class="button secondary">Iframe auth</a>.`);
    expect(macHtml).toContain(`<a href="/s/${site.id}/${pathOf('Welcome')}" class="button primary">Back to the welcome page</a> <a href="https://example.com/support" class="button secondary">Support</a> <a href="#troubleshooting">Top</a>`);
    const drawing = await fetch(new URL(new RegExp(fileUrl).exec(macHtml)![0], site.url));
    expect(drawing.status).toBe(200);
    expect(drawing.headers.get('content-type')).toBe('image/svg+xml');
    expect(drawing.headers.get('content-disposition')).toBe("inline; filename*=UTF-8''drawing.svg");
    expect(drawing.headers.get('content-security-policy')).toBe("default-src 'none'; sandbox");
    expect(await drawing.text()).toBe((source['.gitbook/assets/drawing.svg'] as Buffer).toString());
    // The page's markdown export points the HTML at the same URL (absolute, as its links).
    const macMd = await (await fetch(`${site.url}/${pathOf('Mac OS X')}.md`)).text();
    expect(macMd).toContain(`<img src="${new URL(new RegExp(fileUrl).exec(macHtml)![0], site.url).href}" alt="Install flow">`);
    const guideMd = await (await fetch(`${site.url}/${pathOf('Getting started now')}.md`)).text();
    expect(guideMd).toContain(`[mention](${site.url}/${pathOf('Mac OS X')} "mention")`);
    expect(guideMd).toContain('title: Getting started with the CLI');
    const full = await (await fetch(`${site.url}/llms-full.txt`)).text();
    // A reusable content is printed where the page includes it, as the page shows it: the
    // include tag's repository path would mean nothing beside these files.
    const blocksMd = await (await fetch(`${site.url}/${pathOf('Blocks')}.md`)).text();
    for (const text of [blocksMd, full]) {
      expect(text).toContain('A reusable note.');
      expect(text).not.toContain('{% include');
    }
    const ids = [...located.map((p) => p.id), ...((await api.request('GET', `/spaces/${spaceId}/content/files`, { token: org.admin.token })).body.items as { id: string }[]).map((f) => f.id)];
    expect(ids.length).toBeGreaterThan(located.length);
    for (const text of [guideMd, full]) for (const id of ids) expect(text).not.toContain(id);
    expect(full).toContain(`${site.url}/${pathOf('Welcome')}`);

    // A fresh export into an empty repository prints every page; reads print the same files.
    const fresh = `fresh-${Date.now()}`;
    await createRepo(server, fresh, {});
    await sync(spaceId, 'export', { url: `${server.url}/${fresh}.git` });
    const freshDir = await cloneBranch(server, fresh, 'main');
    try {
      const exported = await corpusFiles(freshDir);
      for (const file of ['README.md', 'guide/mac-osx.md', 'guide/configuring-iframe-auth/README.md', 'reference/api.md', 'reference/blocks.md', 'reference/changelog.md']) {
        const page = pages.find((p) => p.title === { 'README.md': 'Welcome', 'guide/mac-osx.md': 'Mac OS X', 'guide/configuring-iframe-auth/README.md': 'Configuring iframe auth', 'reference/api.md': 'API', 'reference/blocks.md': 'Blocks', 'reference/changelog.md': 'Changelog' }[file])!;
        const markdown = (await api.request('GET', `/spaces/${spaceId}/content/page/${page.id}?format=markdown`, { token: org.admin.token })).body.markdown;
        expect(markdown, file).toBe(exported.get(file)!.toString());
        // Printed from the document, the page says what its source said (documented normalisations aside).
        expect(markdown, file).not.toMatch(/\]\((?!\.|https?:|#|guide|reference|<)/);
      }
      expect(exported.get('guide/mac-osx.md')!.toString()).toContain('src="../.gitbook/assets/Don&#x27;t (1).jpg"');
      // Printed from the stored documents: a card's icon, a multi-line integration block and a resized figure as written.
      expect(exported.get('reference/blocks.md')!.toString()).toContain('<td><i class="fa-download">:download:</i> <strong>Install</strong></td>');
      expect(exported.get('guide/README.md')!.toString()).toContain('{% @mermaid/diagram content="graph TD;\n    A["Install"] --> B["Run"];\n\n    B --> C" %}');
      expect(exported.get('guide/README.md')!.toString()).toContain('alt="The CLI" width="375">');
      expect(exported.get('SUMMARY.md')!.toString()).toContain('## Guides\n');
      // Imported again, the fresh export gives the same documents.
      const again = (await createSpace(api, org)).id;
      await sync(again, 'import', { url: `${server.url}/${fresh}.git` });
      const againPages = flat((await api.request('GET', `/spaces/${again}/content/pages`, { token: org.admin.token })).body.pages);
      for (const page of pages.filter((p) => p.type === 'document')) {
        const twin = againPages.find((p) => p.title === (page.id === guide.id ? 'Getting started now' : page.title))!;
        const a = (await api.request('GET', `/spaces/${spaceId}/content/page/${page.id}?format=markdown`, { token: org.admin.token })).body.markdown;
        const b = (await api.request('GET', `/spaces/${again}/content/page/${twin.id}?format=markdown`, { token: org.admin.token })).body.markdown;
        expect(b, page.title).toBe(a);
      }
    } finally {
      await rm(freshDir, { recursive: true, force: true });
    }
  });
});
