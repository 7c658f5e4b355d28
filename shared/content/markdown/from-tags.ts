/**
 * GitBook tag containers (mdast gitbookBlock) -> document blocks.
 * Shapes follow GitBook's public document: hint{style}, tabs > tabs-item{title},
 * stepper > stepper-step, code{syntax,title,...}, content-ref{ref}, embed{url},
 * file{ref}, and `{% include %}` as reusable-content{path}.
 */
import type { ElementContent } from 'hast';
import type { RootContent } from 'mdast';
import { toString } from 'mdast-util-to-string';
import { attrsToData } from './attrs.ts';
import { hastToMdast, parseHtml } from './html-content.ts';
import { fileRefFromSource, refFromTarget } from './refs.ts';
import type { GitbookBlock } from './syntax.ts';
import { tagBlockByTag, tagRef } from './tag-blocks.ts';
import { block, element, isText, type ElementNode, voidBlock } from './types.ts';

export type BlocksConverter = (nodes: RootContent[]) => ElementNode[];

/** Caption bodies (embed, file) are kept as plain text. */
function caption(node: GitbookBlock): Record<string, unknown> {
  const text = node.children.map((child) => toString(child)).join('\n').trim();
  return text ? { caption: text } : {};
}

/**
 * A caption with more than text (links, code, several paragraphs) is also kept whole as a
 * `caption` fragment, which printing prefers; `data.caption` stays its plain text.
 */
function richCaption(target: ElementNode, node: GitbookBlock, convert: BlocksConverter): ElementNode {
  const blocks = convert(node.children);
  const plain = blocks.length <= 1 && blocks.every((b) => b.type === 'paragraph' && b.nodes.every((n) => isText(n) && n.leaves.every((l) => l.marks.length === 0)));
  if (!plain) target.fragments = [{ object: 'fragment', key: '', fragment: 'caption', nodes: blocks }];
  return target;
}

/** Tabs and steppers: each child tag becomes an item; stray content joins the item before it. */
function items(node: GitbookBlock, itemTag: string, itemType: string, convert: BlocksConverter): ElementNode[] {
  const result: ElementNode[] = [];
  for (const child of node.children) {
    if (child.type === 'gitbookBlock' && child.name === itemTag) {
      const data = attrsToData(child.attrs);
      if (itemType === 'tabs-item') data.title ??= '';
      result.push(block(itemType, convert(child.children), data));
      continue;
    }
    const converted = convert([child]);
    if (converted.length === 0) continue;
    if (result.length === 0) result.push(block(itemType, [], itemType === 'tabs-item' ? { title: '' } : {}));
    result[result.length - 1]!.nodes.push(...converted);
  }
  return result;
}

/** `{% code %}` wraps one fence; its attributes join the code block's data. */
function code(node: GitbookBlock, convert: BlocksConverter): ElementNode[] {
  const converted = convert(node.children);
  const target = converted.find((b) => b.type === 'code');
  if (!target) return [block('code', [], attrsToData(node.attrs)), ...converted];
  target.data = { ...target.data, ...attrsToData(node.attrs, ['syntax']) };
  return converted;
}

export function tagFromMdast(node: GitbookBlock, convert: BlocksConverter): ElementNode[] {
  const { attrs } = node;
  switch (node.name) {
    case 'hint':
      return [block('hint', convert(node.children), { style: attrs.style ?? 'info', ...attrsToData(attrs, ['style']) })];
    case 'tabs':
      return [block('tabs', items(node, 'tab', 'tabs-item', convert), {})];
    case 'stepper':
      return [block('stepper', items(node, 'step', 'stepper-step', convert), {})];
    case 'code':
      return code(node, convert);
    case 'content-ref': {
      // The body is a generated link to the same target; the url attribute is the truth.
      const link = node.children.length > 0 ? findLinkUrl(node.children) : undefined;
      return [voidBlock('content-ref', { ref: refFromTarget(attrs.url ?? link ?? ''), ...attrsToData(attrs, ['url']) })];
    }
    case 'embed':
      return [richCaption(voidBlock('embed', { url: attrs.url ?? '', ...attrsToData(attrs, ['url']), ...caption(node) }), node, convert)];
    case 'file':
      return [richCaption(voidBlock('file', { ref: fileRefFromSource(attrs.src ?? ''), ...attrsToData(attrs, ['src']), ...caption(node) }), node, convert)];
    case 'include':
      return [voidBlock('reusable-content', { path: node.args[0] ?? attrs.path ?? '' })];
    case 'page-ref': {
      // GitBook's older form of a content ref.
      const link = node.children.length > 0 ? findLinkUrl(node.children) : undefined;
      return [voidBlock('content-ref', { ref: refFromTarget(attrs.page ?? link ?? ''), ...attrsToData(attrs, ['page']) })];
    }
    case 'details':
      return [expandable(node, convert)];
    default: {
      const spec = tagBlockByTag.get(node.name);
      if (spec) {
        const data: Record<string, unknown> = spec.expression ? { expression: node.raw ?? '' } : attrsToData(attrs, spec.ref ? [spec.ref.attr] : []);
        if (spec.ref && attrs[spec.ref.attr] !== undefined) data.ref = tagRef(spec.ref.kind, attrs[spec.ref.attr]!);
        Object.assign(data, spec.marker);
        const children = convert(node.children);
        // Without a body, an OpenAPI block is void, as the public model has it.
        return [spec.optionalEnd && children.length === 0 ? voidBlock(spec.type, data) : block(spec.type, children, data)];
      }
    }
      // A lone tab or step outside its parent: keep the content.
      return convert(node.children);
  }
}

/**
 * `<details>` as GitBook's expandable block: the summary is the `expandable-title`
 * fragment (one paragraph), the content the `expandable-body` fragment.
 */
function expandable(node: GitbookBlock, convert: BlocksConverter): ElementNode {
  const summary = node.attrs.summary ?? '';
  const title = convert(hastToMdast(parseHtml(summary).children as ElementContent[], summary)).find((b) => b.type === 'paragraph') ?? block('paragraph', [], {});
  const data: Record<string, unknown> = node.attrs.open === 'true' ? { defaultExpanded: true } : {};
  const result = element('block', 'expandable', [], data, true);
  result.fragments = [
    { object: 'fragment', key: '', fragment: 'expandable-title', type: 'expandable-title', nodes: [title] },
    { object: 'fragment', key: '', fragment: 'expandable-body', type: 'expandable-body', nodes: convert(node.children) },
  ];
  return result;
}

function findLinkUrl(nodes: RootContent[]): string | undefined {
  for (const node of nodes) {
    if (node.type === 'link') return node.url;
    if ('children' in node) {
      const found = findLinkUrl(node.children as RootContent[]);
      if (found !== undefined) return found;
    }
  }
  return undefined;
}
