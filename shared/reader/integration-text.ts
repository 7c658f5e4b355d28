import type { Root, RootContent, PhrasingContent } from 'mdast';
import remarkStringify from 'remark-stringify';
import { unified } from 'unified';
import { markdownToDocument } from '../content/markdown/parse.ts';
import type { StoredDocument } from '../content/types.ts';
import { logger } from '../observability/logger.ts';
import { buttonUrl, codeSyntax, MAX_CONTENTKIT_DEPTH, webUrl, type ContentKitBlock, type Element } from './contentkit.ts';
import { cachedBlockRender, collectIntegrationBlocks, integrationBlockKey } from './integration-blocks.ts';

/**
 * What an integration drew, as text, for the exports that print a page rather than show it
 * (the reader's `<page>.md` and llms-full.txt, `<page>.pdf`, the space and change request
 * PDFs): each integration block with a cached render (shared/reader/integration-blocks.ts,
 * fresh or stale) becomes the document blocks of its ContentKit's text, markdown, code and
 * links, so the exports' own printers (markdown, PDF paragraphs and code) print it. Only the
 * cache is read: an export never runs an integration. A block without a render, or whose
 * lookup fails, stays as it was (its integration, block and props).
 */

type Node = { object: string; type?: string; data?: Record<string, unknown>; nodes?: Node[]; fragments?: Node[] };

const printer = unified().use(remarkStringify, { bullet: '-', fences: true }).freeze();

function phrasing(node: unknown, depth: number): PhrasingContent[] {
  if (typeof node === 'string') return [{ type: 'text', value: node }];
  const el = node as Element;
  if (depth > MAX_CONTENTKIT_DEPTH) return [];
  const kids = (list: unknown) => (typeof list === 'string' ? [list] : (list as unknown[] | undefined) ?? []).flatMap((c) => phrasing(c, depth + 1));
  switch (el.type) {
    case 'text': {
      const children = kids(el.children);
      if (el.style === 'code') return [{ type: 'inlineCode', value: children.map((c) => ('value' in c ? c.value : '')).join('') }];
      const wrap = { bold: 'strong', italic: 'emphasis', strikethrough: 'delete' }[el.style as string] as 'strong' | 'emphasis' | 'delete' | undefined;
      return wrap ? [{ type: wrap, children } as PhrasingContent] : children;
    }
    case 'link': {
      const url = webUrl((el.target as { url: unknown }).url);
      const children = kids(el.children);
      return url ? [{ type: 'link', url: url.href, children }] : children;
    }
    default: return []; // images: no text
  }
}

/** Markdown chunks of an element: mdast printed (its text escaped), or an integration's own markdown as it wrote it. */
function chunks(el: Element, depth: number): string[] {
  if (depth > MAX_CONTENTKIT_DEPTH) return [];
  const print = (content: RootContent[]) => (content.length > 0 ? [printer.stringify({ type: 'root', children: content } as Root)] : []);
  const paragraph = (children: PhrasingContent[]) => print(children.length > 0 ? [{ type: 'paragraph', children }] : []);
  const kids = (list: unknown) => ((list as Element[] | undefined) ?? []).flatMap((c) => chunks(c, depth + 1));
  switch (el.type) {
    case 'text':
    case 'link': return paragraph(phrasing(el, depth));
    case 'markdown': return [String(el.content)];
    case 'codeblock': return print([{ type: 'code', lang: codeSyntax(el) ?? null, value: String(el.content) }]);
    case 'button': {
      const url = buttonUrl(el);
      const label = String(el.label ?? el.tooltip ?? '');
      return url && label ? paragraph([{ type: 'link', url: url.href, children: [{ type: 'text', value: label }] }]) : [];
    }
    case 'webframe': {
      const url = webUrl((el.source as { url: unknown }).url);
      return url ? paragraph([{ type: 'link', url: url.href, children: [{ type: 'text', value: url.href }] }]) : [];
    }
    case 'hstack':
    case 'vstack':
    case 'box': return kids(el.children);
    case 'card': {
      const hint = typeof el.hint === 'string' ? [el.hint] : (el.hint as unknown[] | undefined) ?? [];
      return [
        ...(el.title ? paragraph([{ type: 'strong', children: [{ type: 'text', value: String(el.title) }] }]) : []),
        ...paragraph(hint.flatMap((c) => phrasing(c, depth + 1))),
        ...kids(el.children),
        ...kids(el.buttons),
      ];
    }
    case 'hint': return paragraph((el.children as unknown[]).flatMap((c) => phrasing(c, depth + 1)));
    case 'step': return [...(el.title ? paragraph([{ type: 'strong', children: [{ type: 'text', value: String(el.title) }] }]) : []), ...kids(el.children)];
    default: return [];
  }
}

/** A render's text as document blocks (paragraphs, links, code blocks, the integration's markdown parsed). */
export function contentKitBlocks(block: ContentKitBlock): Node[] {
  const markdown = block.children.flatMap((child) => chunks(child as Element, 0)).join('\n\n');
  return markdownToDocument(markdown).document.nodes as Node[];
}

/**
 * `document` with its integration blocks (at most MAX_INTEGRATION_BLOCKS distinct ones, in
 * its nodes and fragments) replaced by their cached renders' text; `key` says what each shows
 * (part of an export's ETag). Never fails: a block whose lookup fails stays as it was.
 */
export async function withIntegrationText(document: StoredDocument, space: { orgId: string; spaceId: string }): Promise<{ document: StoredDocument; key: string }> {
  const blocks = new Map<string, Record<string, unknown>>();
  collectIntegrationBlocks(document.nodes as Node[], blocks);
  if (blocks.size === 0) return { document, key: '' };
  const rendered = new Map<string, Node[]>();
  const tags = await Promise.all([...blocks].map(async ([key, data]) => {
    try {
      const render = await cachedBlockRender(data, space);
      if (!render) return `${key} none`;
      rendered.set(key, contentKitBlocks(render.block));
      return `${key} ${render.tag}`;
    } catch (error) {
      logger.warn('integration block text not read', { integration: String(data.integration), error: error as Error });
      return `${key} none`;
    }
  }));
  const replace = (nodes: Node[]): Node[] => nodes.flatMap((node) => {
    const text = node.type === 'integration' && node.data ? rendered.get(integrationBlockKey(node.data)) : undefined;
    if (text) return text;
    const out: Node = { ...node };
    if (node.nodes) out.nodes = replace(node.nodes);
    if (node.fragments) out.fragments = replace(node.fragments);
    return [out];
  });
  return { document: { ...document, nodes: replace(document.nodes as Node[]) as StoredDocument['nodes'] }, key: tags.join('\n') };
}
