/**
 * mdast (CommonMark + GFM + paired tags) -> GitBook document blocks.
 * Anything without a document equivalent is kept verbatim (`html` / `markdown`
 * void blocks) so that nothing a writer typed is lost on the way through.
 */
import type { Code, Heading, List, Paragraph, RootContent, Table } from 'mdast';
import { parseFigures } from './figures.ts';
import { tagFromMdast } from './from-tags.ts';
import { imageBlock, imagesBlock, inlinesFromMdast, textNode, type Definitions } from './inline.ts';
import { processor } from './processor.ts';
import { block, voidBlock, type ElementNode } from './types.ts';

/** GitBook's custom heading anchor: `## Title <a href="#id" id="id"></a>`. */
const HEADING_ANCHOR = /^<a href="#([^"]*)" id="([^"]*)"><\/a>$/;

export function blocksFromMdast(nodes: RootContent[], definitions: Definitions): ElementNode[] {
  const convert = (children: RootContent[]) => blocksFromMdast(children, definitions);
  return nodes.flatMap((node): ElementNode[] => {
    switch (node.type) {
      case 'paragraph':
        return [paragraph(node, definitions)];
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
      case 'table':
        return [table(node, definitions)];
      case 'html': {
        const figures = parseFigures(node.value);
        if (!figures) return [voidBlock('html', { html: node.value })];
        return [imagesBlock(figures.map((f) => imageBlock(f.src, f.alt, f.caption)))];
      }
      case 'gitbookBlock':
        return tagFromMdast(node, convert);
      case 'gitbookTag':
        // A tag line without a block type (e.g. `{% columns %}`): kept verbatim.
        return [voidBlock('markdown', { markdown: node.value })];
      case 'definition':
      case 'yaml':
        // Definitions are resolved into links; frontmatter is returned separately.
        return [];
      default:
        return [voidBlock('markdown', { markdown: processor.stringify({ type: 'root', children: [node] }).trimEnd() })];
    }
  });
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

/** GitBook has three heading levels; deeper ones become heading-3. */
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
  return block(`heading-${Math.min(node.depth, 3)}`, inlinesFromMdast(children, definitions), data);
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
  return block('code', node.value.split('\n').map((line) => block('code-line', [textNode(line)], {})), data);
}

/** Kept simple: table > table-row > table-cell (first row is the header), alignment in data. */
function table(node: Table, definitions: Definitions): ElementNode {
  const rows = node.children.map((row) =>
    block('table-row', row.children.map((cell) => block('table-cell', inlinesFromMdast(cell.children, definitions), {})), {}),
  );
  return block('table', rows, { align: (node.align ?? []).map((a) => a ?? null) });
}
