/**
 * mdast (CommonMark + GFM + paired tags) -> GitBook document blocks.
 * Anything without a document equivalent is kept verbatim (`html` / `markdown`
 * void blocks) so that nothing a writer typed is lost on the way through.
 */
import type { Code, Heading, List, Paragraph, RootContent, Table } from 'mdast';
import { tagFromMdast } from './from-tags.ts';
import { imagesFromHtml, tableFromHtml } from './html-blocks.ts';
import { restoreBlanks } from './html-content.ts';
import { htmlRefsData } from './html-images.ts';
import { imageBlock, imagesBlock, inlinesFromMdast, textNode, type Definitions } from './inline.ts';
import { processor } from './processor.ts';
import { parseIntegrationTag } from './tags.ts';
import { block, voidBlock, type ElementNode } from './types.ts';

/** GitBook's custom heading anchor: `## Title <a href="#id" id="id"></a>`. */
const HEADING_ANCHOR = /^<a href="#([^"]*)" id="([^"]*)"><\/a>$/;

export function blocksFromMdast(nodes: RootContent[], definitions: Definitions): ElementNode[] {
  const convert = (children: RootContent[]) => blocksFromMdast(children, definitions);
  return nodes.flatMap((node): ElementNode[] => {
    switch (node.type) {
      case 'paragraph':
        return [rawHtmlParagraph(node, convert) ?? paragraph(node, definitions)];
      case 'heading':
        return [heading(node, definitions)];
      case 'thematicBreak':
        return [voidBlock('divider', {})];
      case 'blockquote':
        return [block('blockquote', convert(node.children), {})];
      case 'list':
        return [list(node, convert)];
      case 'code':
        return [code(node)];
      case 'math':
        // `$$` fences: the public model's math block (its TeX in `data.formula`).
        return [voidBlock('math', { formula: node.value })];
      case 'table':
        return [table(node, definitions)];
      case 'html':
        return [htmlBlock(restoreBlanks(node.value), convert)];
      case 'gitbookBlock':
        return tagFromMdast(node, convert);
      case 'gitbookTag': {
        // GitBook's integration block (`{% @mermaid/diagram content="..." %}`), as the public model has it.
        const integration = parseIntegrationTag(node.value);
        if (integration) return [voidBlock('integration', { integration: integration.integration, block: integration.block, props: integration.props })];
        // A tag line without a block type (e.g. `{% columns %}`): kept verbatim.
        return [voidBlock('markdown', { markdown: node.value })];
      }
      case 'definition':
      case 'yaml':
        // Definitions are resolved into links; frontmatter is returned separately.
        return [];
      default:
        return [voidBlock('markdown', { markdown: processor.stringify({ type: 'root', children: [node] }).trimEnd() })];
    }
  });
}

/** Figures and pictures are images, `<table>` a table; other HTML is kept as written. */
function htmlBlock(html: string, convert: (nodes: RootContent[]) => ElementNode[]): ElementNode {
  const start = /^\s*<(figure|picture|table)[\s>]/i.exec(html)?.[1]?.toLowerCase();
  if (start === 'table') {
    const table = tableFromHtml(html, convert);
    if (table) return table;
  } else if (start) {
    const images = imagesFromHtml(html, convert);
    if (images) return imagesBlock(images);
  }
  // Its relative `<img src>` and `<a href>` are refs, like markdown images' and links' (html-images.ts).
  return voidBlock('html', { html, ...htmlRefsData(html) });
}

/**
 * `<picture>` is no HTML block tag for CommonMark: on its own line it reads as a paragraph of
 * inline HTML. Such a paragraph made only of pictures is an images block.
 */
function rawHtmlParagraph(node: Paragraph, convert: (nodes: RootContent[]) => ElementNode[]): ElementNode | undefined {
  if (node.children[0]?.type !== 'html' || !/^<picture[\s>]/i.test(node.children[0].value)) return undefined;
  if (!node.children.every((c) => c.type === 'html' || (c.type === 'text' && c.value.trim() === ''))) return undefined;
  const images = imagesFromHtml(node.children.map((c) => (c as { value: string }).value).join(''), convert);
  return images ? imagesBlock(images) : undefined;
}

/** A paragraph holding only images (and line breaks between them) is an images block. */
function paragraph(node: Paragraph, definitions: Definitions): ElementNode {
  const isImage = (child: Paragraph['children'][number]) => child.type === 'image' || child.type === 'imageReference';
  const onlyImages =
    node.children.some(isImage) &&
    node.children.every((child) => isImage(child) || (child.type === 'text' && child.value.trim() === ''));
  if (!onlyImages) return block('paragraph', inlinesFromMdast(node.children, definitions), {});
  const images = node.children.flatMap((child) => {
    if (child.type === 'image') return [imageBlock(child.url, child.alt, child.title)];
    if (child.type === 'imageReference') {
      const def = definitions.get(child.identifier.toLowerCase());
      return [imageBlock(def?.url ?? '', child.alt, def?.title)];
    }
    return [];
  });
  return imagesBlock(images);
}

/** `heading-1` to `heading-6` (the public document has 1 to 3; 4 to 6 have the same shape). */
function heading(node: Heading, definitions: Definitions): ElementNode {
  const children = [...node.children];
  const data: Record<string, unknown> = {};
  // The anchor parses as two inline HTML nodes: `<a href="#id" id="id">` and `</a>`.
  const [open, close] = children.slice(-2);
  const anchor = open?.type === 'html' && close?.type === 'html' ? HEADING_ANCHOR.exec(open.value + close.value) : null;
  if (anchor && anchor[1] === anchor[2]) {
    data.id = anchor[1];
    children.splice(-2);
    const before = children[children.length - 1];
    if (before?.type === 'text') children[children.length - 1] = { ...before, value: before.value.trimEnd() };
  }
  return block(`heading-${node.depth}`, inlinesFromMdast(children, definitions), data);
}

function list(node: List, convert: (nodes: RootContent[]) => ElementNode[]): ElementNode {
  const tasks = node.children.some((item) => typeof item.checked === 'boolean');
  const type = tasks ? 'list-tasks' : node.ordered ? 'list-ordered' : 'list-unordered';
  const data: Record<string, unknown> = {};
  if (type === 'list-ordered' && typeof node.start === 'number' && node.start !== 1) data.start = node.start;
  const items = node.children.map((item) =>
    block('list-item', convert(item.children), tasks ? { checked: item.checked === true } : {}),
  );
  return block(type, items, data);
}

/** One code-line block per line, as GitBook stores code. */
function code(node: Code): ElementNode {
  const data: Record<string, unknown> = {};
  if (node.lang) data.syntax = node.lang;
  // Words after the language (```` ```js copy ````) are kept as written.
  if (node.meta) data.meta = node.meta;
  return block('code', node.value.split('\n').map((line) => block('code-line', [textNode(line)], {})), data);
}

/** Kept simple: table > table-row > table-cell (first row is the header), alignment in data. */
function table(node: Table, definitions: Definitions): ElementNode {
  const rows = node.children.map((row) =>
    block('table-row', row.children.map((cell) => block('table-cell', inlinesFromMdast(cell.children, definitions), {})), {}),
  );
  return block('table', rows, { align: (node.align ?? []).map((a) => a ?? null) });
}
