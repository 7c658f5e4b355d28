import { getJsonBlob } from '../content/blobs.ts';
import { fileDownloadUrl } from '../content/file-urls.ts';
import { findPage, findPageByPath, type LocatedPage } from '../content/tree.ts';
import type { Manifest, ManifestFile, StoredDocument } from '../content/types.ts';
import { anchorOf, escapeHtml, safeUrl } from './html.ts';

/**
 * A page's document (shared/content/markdown/types.ts) as HTML. Every text and attribute
 * is escaped; raw HTML blocks of a document are shown as text, not run (the reader shares
 * its origin with the API). Block tags: hints, tabs (switched by the layout's script),
 * code with titles, steppers, content refs, embeds, files, includes (reusable content)
 * and images, whose file refs become presigned S3 URLs.
 */

type Node = { object: string; type?: string; data?: Record<string, unknown>; nodes?: Node[]; leaves?: { text: string; marks?: { type: string; data?: Record<string, unknown> }[] }[] };

export interface RenderContext {
  manifest: Manifest;
  current: LocatedPage;
  /** URL of a page path in the current site space. */
  pageHref(path: string): string;
  /** Presigned URLs by file id. */
  fileUrls: Map<string, string>;
  /** Documents of reusable contents by id. */
  includes: Map<string, StoredDocument>;
  /** Ids for tab groups and headings, unique within the page. */
  ids: { next: number; anchors: Set<string> };
}

const MAX_INCLUDE_DEPTH = 3;

function findFile(manifest: Manifest, ref: unknown): ManifestFile | undefined {
  if (!ref || typeof ref !== 'object') return undefined;
  const r = ref as Record<string, unknown>;
  if (r.kind !== 'file' || typeof r.file !== 'string') return undefined;
  const wanted = r.file;
  const byId = manifest.files.find((f) => f.id === wanted);
  if (byId) return byId;
  let name = wanted.split(/[?#]/)[0]!.split('/').pop() ?? '';
  try {
    name = decodeURIComponent(name);
  } catch {
    // keep as written
  }
  return manifest.files.find((f) => f.name === name);
}

function includeId(manifest: Manifest, data: Record<string, unknown> | undefined): string | undefined {
  const ref = data?.ref as { reusableContent?: string } | undefined;
  if (ref?.reusableContent && manifest.reusableContents.some((r) => r.id === ref.reusableContent)) return ref.reusableContent;
  const path = String(data?.path ?? '').split('/').pop()?.replace(/\.md$/, '') ?? '';
  return manifest.reusableContents.find((r) => r.id === path || anchorOf(r.title) === anchorOf(path))?.id;
}

/** Loads what rendering a document needs: presigned file URLs and included documents. */
export async function prepareRender(document: StoredDocument, manifest: Manifest): Promise<Pick<RenderContext, 'fileUrls' | 'includes'>> {
  const fileUrls = new Map<string, string>();
  const includes = new Map<string, StoredDocument>();
  const files = new Map<string, ManifestFile>();
  const visit = async (nodes: Node[], depth: number): Promise<void> => {
    const pending: Promise<void>[] = [];
    const walk = (list: Node[]) => {
      for (const node of list) {
        const file = findFile(manifest, node.data?.ref);
        if (file) files.set(file.id, file);
        if (node.type === 'reusable-content' && depth < MAX_INCLUDE_DEPTH) {
          const id = includeId(manifest, node.data);
          const content = id ? manifest.reusableContents.find((r) => r.id === id) : undefined;
          if (content && !includes.has(content.id)) {
            pending.push(getJsonBlob<StoredDocument>(content.document).then(async (doc) => {
              includes.set(content.id, doc);
              await visit(doc.nodes as Node[], depth + 1);
            }));
          }
        }
        if (node.nodes) walk(node.nodes);
      }
    };
    walk(nodes);
    await Promise.all(pending);
  };
  await visit(document.nodes as Node[], 0);
  await Promise.all([...files.values()].map(async (f) => fileUrls.set(f.id, await fileDownloadUrl(f))));
  return { fileUrls, includes };
}

/** The page a relative markdown link or a page id points at, from the current page. */
function resolvePageRef(ctx: RenderContext, target: string): LocatedPage | undefined {
  const byId = findPage(ctx.manifest, target);
  if (byId) return byId;
  if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('/')) return undefined;
  // Markdown paths are relative to the page's file: `<path>/README.md` for pages with children, else `<path>.md`.
  const { current } = ctx;
  const dir = current.page.pages.length > 0 ? current.path.split('/') : current.path.split('/').slice(0, -1);
  const parts = [...dir];
  for (const part of target.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') parts.pop();
    else parts.push(part);
  }
  const path = parts.join('/').replace(/(^|\/)README\.md$/i, '').replace(/\.md$/i, '');
  return findPageByPath(ctx.manifest, path);
}

/** An href for a content ref: pages and anchors in this site space, files presigned, urls as they are. */
function refHref(ctx: RenderContext, ref: unknown): { href: string; label?: string } {
  if (!ref || typeof ref !== 'object') return { href: '#' };
  const r = ref as Record<string, unknown>;
  switch (r.kind) {
    case 'url':
      return { href: String(r.url ?? '#') };
    case 'file': {
      const file = findFile(ctx.manifest, r);
      return file ? { href: ctx.fileUrls.get(file.id) ?? '#', label: file.name } : { href: '#' };
    }
    case 'page':
    case 'anchor': {
      const anchor = r.kind === 'anchor' ? `#${String(r.anchor ?? '')}` : '';
      const target = typeof r.page === 'string' && r.page !== '' ? r.page : undefined;
      if (!target) return { href: anchor || '#' };
      const page = resolvePageRef(ctx, target);
      return page ? { href: `${ctx.pageHref(page.path)}${anchor}`, label: page.page.title } : { href: `${target}${anchor}` };
    }
    default:
      return { href: typeof r.url === 'string' ? r.url : '#' };
  }
}

function textOf(node: Node): string {
  if (node.object === 'text') return (node.leaves ?? []).map((l) => l.text).join('');
  return (node.nodes ?? []).map(textOf).join('');
}

function leafHtml(leaf: { text: string; marks?: { type: string }[] }): string {
  let out = escapeHtml(leaf.text).replace(/\n/g, '<br>');
  for (const mark of leaf.marks ?? []) {
    if (mark.type === 'bold') out = `<strong>${out}</strong>`;
    else if (mark.type === 'italic') out = `<em>${out}</em>`;
    else if (mark.type === 'strikethrough') out = `<del>${out}</del>`;
    else if (mark.type === 'code') out = `<code>${out}</code>`;
  }
  return out;
}

function inlines(ctx: RenderContext, nodes: Node[] = []): string {
  return nodes.map((node) => {
    if (node.object === 'text') return (node.leaves ?? []).map(leafHtml).join('');
    const data = node.data ?? {};
    switch (node.type) {
      case 'link': {
        const { href } = refHref(ctx, data.ref);
        return `<a href="${safeUrl(href)}">${inlines(ctx, node.nodes)}</a>`;
      }
      case 'inline-image': {
        const { href } = refHref(ctx, data.ref);
        return `<img src="${safeUrl(href)}" alt="${escapeHtml(data.alt ?? '')}" loading="lazy">`;
      }
      case 'html':
        return `<code>${escapeHtml(data.html ?? '')}</code>`;
      case 'markdown':
        return escapeHtml(data.markdown ?? '');
      default:
        return inlines(ctx, node.nodes);
    }
  }).join('');
}

function heading(ctx: RenderContext, node: Node, level: number): string {
  const text = textOf(node);
  let id = typeof node.data?.id === 'string' && node.data.id ? node.data.id : anchorOf(text);
  while (ctx.ids.anchors.has(id)) id = `${id}-${ctx.ids.next++}`;
  ctx.ids.anchors.add(id);
  return `<h${level} id="${escapeHtml(id)}"><a class="anchor" href="#${escapeHtml(id)}" aria-hidden="true">#</a>${inlines(ctx, node.nodes)}</h${level}>`;
}

function caption(data: Record<string, unknown>): string {
  return typeof data.caption === 'string' && data.caption ? `<figcaption>${escapeHtml(data.caption)}</figcaption>` : '';
}

function image(ctx: RenderContext, node: Node): string {
  const data = node.data ?? {};
  const { href } = refHref(ctx, data.ref);
  return `<figure class="image"><img src="${safeUrl(href)}" alt="${escapeHtml(data.alt ?? '')}" loading="lazy">${caption(data)}</figure>`;
}

const HINT_STYLES = new Set(['info', 'success', 'warning', 'danger']);

export function renderBlocks(ctx: RenderContext, nodes: Node[] = [], depth = 0): string {
  return nodes.map((node) => renderBlock(ctx, node, depth)).join('\n');
}

function renderBlock(ctx: RenderContext, node: Node, depth: number): string {
  if (node.object === 'text') return `<p>${inlines(ctx, [node])}</p>`;
  const data = node.data ?? {};
  const children = () => renderBlocks(ctx, node.nodes, depth);
  switch (node.type) {
    case 'paragraph': {
      const body = inlines(ctx, node.nodes);
      return body ? `<p>${body}</p>` : '';
    }
    case 'heading-1': return heading(ctx, node, 2);
    case 'heading-2': return heading(ctx, node, 3);
    case 'heading-3': return heading(ctx, node, 4);
    case 'divider': return '<hr>';
    case 'blockquote': return `<blockquote>${children()}</blockquote>`;
    case 'list-unordered':
    case 'list-ordered':
    case 'list-tasks': {
      const tag = node.type === 'list-ordered' ? 'ol' : 'ul';
      const start = node.type === 'list-ordered' && typeof data.start === 'number' && data.start !== 1 ? ` start="${data.start}"` : '';
      const items = (node.nodes ?? []).map((item) => {
        const box = node.type === 'list-tasks' ? `<input type="checkbox" disabled${item.data?.checked === true ? ' checked' : ''}> ` : '';
        return `<li>${box}${renderBlocks(ctx, item.nodes, depth)}</li>`;
      });
      return `<${tag}${start}${node.type === 'list-tasks' ? ' class="tasks"' : ''}>${items.join('')}</${tag}>`;
    }
    case 'code': {
      const lines = (node.nodes ?? []).map(textOf).join('\n');
      const syntax = typeof data.syntax === 'string' && data.syntax ? data.syntax : '';
      const title = typeof data.title === 'string' && data.title ? `<figcaption class="code-title">${escapeHtml(data.title)}</figcaption>` : '';
      return `<figure class="code">${title}<pre${data.lineNumbers ? ' class="line-numbers"' : ''}><code${syntax ? ` class="language-${escapeHtml(syntax)}"` : ''}>${escapeHtml(lines)}</code></pre></figure>`;
    }
    case 'table': {
      const rows = node.nodes ?? [];
      const align = Array.isArray(data.align) ? (data.align as (string | null)[]) : [];
      const cells = (row: Node, tag: 'th' | 'td') => (row.nodes ?? []).map((cell, i) => {
        const a = align[i];
        return `<${tag}${a === 'left' || a === 'right' || a === 'center' ? ` style="text-align:${a}"` : ''}>${inlines(ctx, cell.nodes)}</${tag}>`;
      }).join('');
      const [head, ...body] = rows;
      return `<div class="table"><table>${head ? `<thead><tr>${cells(head, 'th')}</tr></thead>` : ''}<tbody>${body.map((r) => `<tr>${cells(r, 'td')}</tr>`).join('')}</tbody></table></div>`;
    }
    case 'images': return `<div class="images">${(node.nodes ?? []).map((n) => image(ctx, n)).join('')}</div>`;
    case 'image': return image(ctx, node);
    case 'hint': {
      const style = HINT_STYLES.has(String(data.style)) ? String(data.style) : 'info';
      return `<div class="hint hint-${style}" role="note" data-style="${style}">${children()}</div>`;
    }
    case 'tabs': {
      const group = `tabs-${ctx.ids.next++}`;
      const items = node.nodes ?? [];
      const buttons = items.map((item, i) => `<button type="button" role="tab" id="${group}-tab-${i}" aria-controls="${group}-panel-${i}" aria-selected="${i === 0}">${escapeHtml(item.data?.title ?? `Tab ${i + 1}`)}</button>`).join('');
      const panels = items.map((item, i) => `<div class="tab-panel" role="tabpanel" id="${group}-panel-${i}" aria-labelledby="${group}-tab-${i}"${i === 0 ? '' : ' hidden'}>${renderBlocks(ctx, item.nodes, depth)}</div>`).join('');
      return `<div class="tabs" data-tabs><div class="tab-list" role="tablist">${buttons}</div>${panels}</div>`;
    }
    case 'stepper':
      return `<ol class="stepper">${(node.nodes ?? []).map((step) => `<li class="step">${renderBlocks(ctx, step.nodes, depth)}</li>`).join('')}</ol>`;
    case 'content-ref': {
      const { href, label } = refHref(ctx, data.ref);
      return `<a class="content-ref" href="${safeUrl(href)}"><span class="content-ref-title">${escapeHtml(label ?? href)}</span><span aria-hidden="true">→</span></a>`;
    }
    case 'embed': {
      const url = String(data.url ?? '');
      let host = url;
      try {
        host = new URL(url).hostname;
      } catch {
        // not a URL: show it as written
      }
      return `<figure class="embed"><a href="${safeUrl(url)}" rel="noopener" target="_blank"><span class="embed-host">${escapeHtml(host)}</span> <span class="embed-url">${escapeHtml(url)}</span></a>${caption(data)}</figure>`;
    }
    case 'file': {
      const { href, label } = refHref(ctx, data.ref);
      return `<figure class="file"><a href="${safeUrl(href)}" download>${escapeHtml(label ?? 'Download')}</a>${caption(data)}</figure>`;
    }
    case 'reusable-content': {
      const id = includeId(ctx.manifest, data);
      const doc = id ? ctx.includes.get(id) : undefined;
      if (!doc || depth >= MAX_INCLUDE_DEPTH) return '';
      return `<div class="include" data-reusable-content="${escapeHtml(id)}">${renderBlocks(ctx, doc.nodes as Node[], depth + 1)}</div>`;
    }
    case 'html':
      return `<pre class="raw-html"><code>${escapeHtml(data.html ?? '')}</code></pre>`;
    case 'markdown':
      return `<pre class="raw-markdown"><code>${escapeHtml(data.markdown ?? '')}</code></pre>`;
    default:
      return children();
  }
}

/** Renders a (variables-evaluated) page document. */
export async function renderDocument(document: StoredDocument, ctx: Omit<RenderContext, 'fileUrls' | 'includes' | 'ids'>): Promise<string> {
  const prepared = await prepareRender(document, ctx.manifest);
  return renderBlocks({ ...ctx, ...prepared, ids: { next: 0, anchors: new Set() } }, document.nodes as Node[]);
}
