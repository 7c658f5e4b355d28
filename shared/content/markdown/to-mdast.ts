/**
 * Document blocks -> mdast, ready for the canonical printer. Tag blocks become
 * gitbookBlock containers (printed by syntax.ts); unknown block types from API
 * documents degrade to their children so their text is not dropped.
 */
import { h } from 'hastscript';
import { toHtml } from 'hast-util-to-html';
import type { BlockContent, DefinitionContent, List, ListItem, TableRow } from 'mdast';
import { dataToAttrs } from './attrs.ts';
import { captionText } from './captions.ts';
import { imagesToHtml, needsHtmlTable, tableToHtml } from './html-blocks.ts';
import { mdastToHtml } from './html-content.ts';
import { printedHtml } from './html-images.ts';
import { imageToMdast, inlinesToMdast } from './inline.ts';
import { targetOf } from './refs.ts';
import type { GitbookBlock } from './syntax.ts';
import { tagBlockOf, tagRefValue } from './tag-blocks.ts';
import { formatIntegrationTag } from './tags.ts';
import { isElement, isText, type DocumentNode, type ElementNode } from './types.ts';

type Flow = BlockContent | DefinitionContent;

function tag(name: string, attrs: Record<string, string>, children: Flow[], extra: Partial<GitbookBlock> = {}): GitbookBlock {
  return { type: 'gitbookBlock', name, attrs, args: [], children, ...extra };
}

function elements(nodes: DocumentNode[] | undefined): ElementNode[] {
  return (nodes ?? []).filter(isElement);
}

/** A caption body: the rich `caption` fragment when there is one, else `data.caption`'s text. */
function captionParagraph(data: Record<string, unknown>, node?: ElementNode): Flow[] {
  const rich = (node?.fragments ?? []).find((f) => f.fragment === 'caption');
  if (rich && rich.nodes.length > 0) return blocksToMdast(rich.nodes);
  return typeof data.caption === 'string' && data.caption
    ? [{ type: 'paragraph', children: [{ type: 'text', value: data.caption }] }]
    : [];
}

export function blocksToMdast(nodes: DocumentNode[]): Flow[] {
  return elements(nodes).flatMap(blockToMdast);
}

function blockToMdast(node: ElementNode): Flow[] {
  const data = node.data ?? {};
  const children = () => blocksToMdast(node.nodes);
  switch (node.type) {
    case 'paragraph': {
      // An empty paragraph (possible in API documents) has no markdown form.
      const phrasing = inlinesToMdast(node.nodes);
      return phrasing.length > 0 ? [{ type: 'paragraph', children: phrasing }] : [];
    }
    case 'heading-1':
    case 'heading-2':
    case 'heading-3':
    case 'heading-4':
    case 'heading-5':
    case 'heading-6':
      return [heading(node)];
    case 'expandable':
      return expandable(node);
    case 'divider':
      return [{ type: 'thematicBreak' }];
    case 'blockquote':
      return [{ type: 'blockquote', children: children() }];
    case 'list-unordered':
    case 'list-ordered':
    case 'list-tasks':
      return [list(node)];
    case 'code':
      return [code(node)];
    case 'math':
      return [{ type: 'math', value: String(data.formula ?? '') }];
    case 'table':
      return [table(node)];
    case 'images':
      return images(elements(node.nodes));
    case 'image':
      return images([node]);
    case 'hint':
      return [tag('hint', { style: String(data.style ?? 'info'), ...dataToAttrs(data, ['style']) }, children())];
    case 'tabs':
      return [tag('tabs', {}, elements(node.nodes).map((item) => tag('tab', itemAttrs(item), blocksToMdast(item.nodes))))];
    case 'stepper':
      return [tag('stepper', {}, elements(node.nodes).map((step) => tag('step', dataToAttrs(step.data), blocksToMdast(step.nodes))))];
    case 'content-ref': {
      const url = targetOf(data.ref);
      const link: Flow = { type: 'paragraph', children: [{ type: 'link', url, title: null, children: [{ type: 'text', value: url }] }] };
      return [tag('content-ref', { url, ...dataToAttrs(data, ['ref']) }, [link])];
    }
    case 'embed': {
      const caption = captionParagraph(data, node);
      return [tag('embed', { url: String(data.url ?? ''), ...dataToAttrs(data, ['url', 'caption']) }, caption, { selfClosing: caption.length === 0 })];
    }
    case 'file':
      return [tag('file', { src: targetOf(data.ref), ...dataToAttrs(data, ['caption']) }, captionParagraph(data, node))];
    case 'reusable-content': {
      const ref = data.ref as { reusableContent?: string } | undefined;
      return [tag('include', {}, [], { args: [String(data.path ?? ref?.reusableContent ?? '')], selfClosing: true })];
    }
    case 'html':
      // Image sources as their refs' targets now (a moved file, or a site URL in reader exports).
      return [{ type: 'html', value: printedHtml(String(data.html ?? ''), data, targetOf) }];
    case 'integration': {
      const props = data.props && typeof data.props === 'object' ? (data.props as Record<string, string>) : {};
      return [{ type: 'gitbookTag', value: formatIntegrationTag({ integration: String(data.integration ?? ''), block: String(data.block ?? ''), props }) }];
    }
    case 'markdown': {
      const value = String(data.markdown ?? '');
      return [/^\{%.*%\}$/.test(value) ? { type: 'gitbookTag', value } : { type: 'html', value }];
    }
    default: {
      const spec = tagBlockOf(node.type, data);
      if (!spec) return children();
      const skip = ['ref', 'expression', ...Object.keys(spec.marker ?? {})];
      const attrs = { ...(spec.ref && data.ref ? { [spec.ref.attr]: tagRefValue(data.ref) } : {}), ...dataToAttrs(data, skip) };
      const body = children();
      const extra: Partial<GitbookBlock> = spec.expression ? { raw: String(data.expression ?? '') } : {};
      if (spec.optionalEnd && body.length === 0) extra.selfClosing = true;
      return [tag(spec.tag, attrs, body, extra)];
    }
  }
}

/** An expandable as GitBook writes it: `<details>`, `<summary>` (the title as HTML), the body in markdown, `</details>`. */
function expandable(node: ElementNode): Flow[] {
  const fragment = (name: string) => (node.fragments ?? []).find((f) => f.fragment === name)?.nodes ?? [];
  const title = elements(fragment('expandable-title'))[0];
  const summary = title ? mdastToHtml(inlinesToMdast(title.nodes) as never) : '';
  return [
    { type: 'html', value: node.data?.defaultExpanded === true ? '<details open>' : '<details>' },
    { type: 'html', value: `<summary>${summary}</summary>` },
    ...blocksToMdast(fragment('expandable-body')),
    { type: 'html', value: '</details>' },
  ];
}

function itemAttrs(item: ElementNode): Record<string, string> {
  return { title: String(item.data?.title ?? ''), ...dataToAttrs(item.data, ['title']) };
}

function heading(node: ElementNode): Flow {
  const depth = Number(node.type.slice(-1)) as 1 | 2 | 3 | 4 | 5 | 6;
  const children = inlinesToMdast(node.nodes);
  const id = node.data?.id;
  if (typeof id === 'string' && id) {
    // Printed by hast-util-to-html, so an id never escapes its attribute.
    children.push({ type: 'text', value: ' ' }, { type: 'html', value: toHtml(h('a', { href: `#${id}`, id })) });
  }
  return { type: 'heading', depth, children };
}

function list(node: ElementNode): List {
  const tasks = node.type === 'list-tasks';
  const start = node.data?.start;
  const items = elements(node.nodes).map(
    (item): ListItem => ({
      type: 'listItem',
      spread: false,
      checked: tasks ? item.data?.checked === true : null,
      children: blocksToMdast(item.nodes) as ListItem['children'],
    }),
  );
  return {
    type: 'list',
    ordered: node.type === 'list-ordered',
    start: typeof start === 'number' ? start : 1,
    spread: false,
    children: items,
  };
}

function codeText(line: DocumentNode): string {
  if (isText(line)) return line.leaves.map((l) => l.text).join('');
  return line.nodes.map(codeText).join('');
}

/** A plain fence, wrapped in `{% code %}` when it carries a title or other options. */
function code(node: ElementNode): Flow {
  const data = node.data ?? {};
  const value = node.nodes.map(codeText).join('\n');
  const lang = typeof data.syntax === 'string' && data.syntax ? data.syntax : null;
  const meta = typeof data.meta === 'string' && data.meta ? data.meta : null;
  // Words after the fence need a language before them.
  const fence: Flow = { type: 'code', lang: lang ?? (meta ? 'text' : null), meta, value };
  const attrs = dataToAttrs(data, ['syntax', 'meta']);
  return Object.keys(attrs).length > 0 ? tag('code', attrs, [fence]) : fence;
}

function table(node: ElementNode): Flow {
  if (needsHtmlTable(node)) return { type: 'html', value: tableToHtml(node, blocksToMdast as never) };
  const align = Array.isArray(node.data?.align) ? (node.data.align as (string | null)[]) : [];
  const rows = elements(node.nodes).map(
    (row): TableRow => ({
      type: 'tableRow',
      children: elements(row.nodes).map((cell) => ({ type: 'tableCell', children: inlinesToMdast(cell.nodes) })),
    }),
  );
  return {
    type: 'table',
    align: align.map((a) => (a === 'left' || a === 'right' || a === 'center' ? a : null)),
    children: rows,
  };
}

/** Plain `![alt](src)` lines unless an image has a caption: then GitBook's figure HTML. */
function images(nodes: ElementNode[]): Flow[] {
  const captions = nodes.map(captionText);
  // A caption, a dark variant or a size: only GitBook's figure says them.
  const figure = (n: ElementNode) => n.data?.refDark || n.data?.width !== undefined || n.data?.height !== undefined || (n.fragments ?? []).some((f) => f.nodes.length > 0);
  if (captions.some(Boolean) || nodes.some(figure)) {
    return [{ type: 'html', value: imagesToHtml(nodes, blocksToMdast as never) }];
  }
  const children = nodes.flatMap((n, i) => (i === 0 ? [imageToMdast(n)] : [{ type: 'text' as const, value: '\n' }, imageToMdast(n)]));
  return [{ type: 'paragraph', children }];
}
