import { getJsonBlob } from '../content/blobs.ts';
import { findPage, findPageByPath, type LocatedPage } from '../content/tree.ts';
import type { Manifest, ManifestFile, StoredDocument } from '../content/types.ts';
import type { ElementContent } from 'hast';
import { h } from 'hastscript';
import { captionText } from '../content/markdown/captions.ts';
import { markdownToDocument } from '../content/markdown/parse.ts';
import { anchorOf } from './html.ts';
import { includeId, MAX_INCLUDE_DEPTH } from './inline-includes.ts';
import { raw } from './sanitize.ts';
import { renderExtendedBlock, type ExtendedRenderHelpers } from './blocks-extended.ts';
import { codeHighlighter, type CodeHighlighter } from './highlight.ts';
import { loadKatex, newMathSlots, renderMath, type MathSlots } from './math.ts';
import { renderTable } from './tables.ts';
import { imageSources } from '../content/images/variants.ts';
import { htmlRefsOf } from '../content/markdown/html-images.ts';
import { htmlWithFileUrls } from './html-images.ts';
import { ENGLISH, message, type MessageKey, type ReaderIntl } from './messages.ts';
import { integrationBlockHast, type IntegrationBlocks } from './integration-blocks.ts';
import { randomBytes } from 'node:crypto';

/**
 * A page's document (shared/content/markdown/types.ts) as a hast tree. Raw HTML of the
 * document stays `raw` nodes here: the layout parses and sanitizes the whole page body at
 * once (shared/reader/sanitize.ts), so nothing built here is trusted as HTML. Block tags:
 * hints, tabs (switched by the layout's script), code with titles, steppers, content refs,
 * embeds, files, includes (reusable content) and images, whose file refs become stable
 * URLs under the site (`fileHref`: never presigned URLs, which would expire inside cached
 * HTML), images with their stored width and height. Code is highlighted by shiki
 * (shared/reader/highlight.ts), math rendered to MathML by KaTeX (shared/reader/math.ts),
 * tables and their card views by shared/reader/tables.ts.
 */

export type ReaderNode = Node;
type Node = { object: string; type?: string; data?: Record<string, unknown>; nodes?: Node[]; fragments?: { fragment?: string; nodes?: Node[] }[]; leaves?: { text: string; marks?: { type: string; data?: Record<string, unknown> }[] }[] };

export interface RenderContext {
  manifest: Manifest;
  current: LocatedPage;
  /** URL of a page path in the current site space. */
  pageHref(path: string): string;
  /** Where the reader serves a file (a stable URL under the site). */
  fileHref(file: ManifestFile): string;
  /** File URLs (fileHref) by file id, for the files the document refers to. */
  fileUrls: Map<string, string>;
  /** Files the document refers to, by id (for image dimensions). */
  files: Map<string, ManifestFile>;
  /** Highlighter with the document's code languages loaded. */
  code: CodeHighlighter;
  /** Documents of reusable contents by id. */
  includes: Map<string, StoredDocument>;
  /** Ids for tab groups and headings, unique within the page. */
  ids: { next: number; anchors: Set<string> };
  /** KaTeX and the page's rendered formulas, when the document has math. */
  math?: MathSlots;
  /** The reader's own words (hint labels, footnote links...) in the site's locale; English by default. */
  intl?: ReaderIntl;
  /** The page's integration blocks as their integrations rendered them (shared/reader/integration-blocks.ts). */
  integrationBlocks?: IntegrationBlocks;
  /** What adaptive content conditions (`if` blocks) see: visitorContext of the visitor's claims; none: no claims (fail closed). */
  visitor?: Record<string, unknown>;
  /** Webframes of integration blocks: iframes put in place after sanitizing, their origins for the page's frame-src. */
  frames?: { nonce: string; slots: Map<string, ElementContent>; origins: Set<string> };
}

const words = (ctx: RenderContext, key: MessageKey, values?: Record<string, string | number>): string => message(ctx.intl ?? ENGLISH, key, values);


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


type Prepared = Pick<RenderContext, 'fileUrls' | 'files' | 'includes' | 'code' | 'math'>;

const MATH_TYPES = new Set(['math', 'inline-math']);

/** Loads what rendering a document needs: its files' URLs, included documents and code languages. */
export async function prepareRender(document: StoredDocument, manifest: Manifest, fileHref: RenderContext['fileHref']): Promise<Prepared> {
  const fileUrls = new Map<string, string>();
  const includes = new Map<string, StoredDocument>();
  const files = new Map<string, ManifestFile>();
  const syntaxes = new Set<string>();
  let hasMath = false;
  const visit = async (nodes: Node[], depth: number): Promise<void> => {
    const pending: Promise<void>[] = [];
    const walk = (list: Node[]) => {
      for (const node of list) {
        // Markdown images and links, and the images and links of raw HTML (shared/reader/html-images.ts).
        for (const ref of [node.data?.ref, node.data?.refDark, ...htmlRefsOf(node.data)]) {
          const file = findFile(manifest, ref);
          if (file) files.set(file.id, file);
        }
        if (node.type === 'code' && typeof node.data?.syntax === 'string') syntaxes.add(node.data.syntax);
        if (MATH_TYPES.has(String(node.type))) hasMath = true;
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
        // Fragments hold blocks too (an expandable's body, captions): their code, math, images and includes.
        for (const fragment of node.fragments ?? []) if (fragment.nodes) walk(fragment.nodes);
      }
    };
    walk(nodes);
    await Promise.all(pending);
  };
  await visit(document.nodes as Node[], 0);
  for (const f of files.values()) fileUrls.set(f.id, fileHref(f));
  const [code, katex] = await Promise.all([codeHighlighter(syntaxes), hasMath ? loadKatex() : undefined]);
  return { fileUrls, files, includes, code, math: katex ? newMathSlots(katex) : undefined };
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

/** An href for a content ref: pages and anchors in this site space, files under the site, urls as they are. */
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

/** An html block's or inline's HTML, its images pointed at their files' URLs and its links at pages (sanitized later with the page). */
function rawHtml(ctx: RenderContext, data: Record<string, unknown>): string {
  const fileOf = (ref: unknown) => {
    const file = findFile(ctx.manifest, ref);
    const href = file ? ctx.fileUrls.get(file.id) : undefined;
    return file && href ? { file, href } : undefined;
  };
  return htmlWithFileUrls(String(data.html ?? ''), data, fileOf, (ref) => refHref(ctx, ref).href);
}

function textOf(node: Node): string {
  if (node.object === 'text') return (node.leaves ?? []).map((l) => l.text).join('');
  return (node.nodes ?? []).map(textOf).join('');
}

type Out = ElementContent[];

const MARK_TAGS: Record<string, string> = { bold: 'strong', italic: 'em', strikethrough: 'del', code: 'code' };

function leaf(value: { text: string; marks?: { type: string }[] }): Out {
  const lines = value.text.split('\n');
  let out: Out = lines.flatMap((line, i) => (i === 0 ? [{ type: 'text' as const, value: line }] : [h('br'), { type: 'text' as const, value: line }]));
  for (const mark of value.marks ?? []) {
    const tag = MARK_TAGS[mark.type];
    if (tag) out = [h(tag, out)];
  }
  return out;
}

function inlines(ctx: RenderContext, nodes: Node[] = []): Out {
  return nodes.flatMap((node): Out => {
    if (node.object === 'text') return (node.leaves ?? []).flatMap(leaf);
    const data = node.data ?? {};
    switch (node.type) {
      case 'link': {
        // A link around nothing readable (`[ ](page.md)`, left by editors) would be an unnamed link: its text only.
        const content = inlines(ctx, node.nodes);
        const named = textOf(node).trim() !== '' || (node.nodes ?? []).some((n) => n.type === 'inline-image');
        return named ? [h('a', { href: refHref(ctx, data.ref).href }, content)] : content;
      }
      case 'inline-image':
        return themedImage(ctx, data);
      case 'inline-math':
        return [renderMath(ctx.math, data.formula, false)];
      case 'html':
        return [raw(rawHtml(ctx, data))];
      case 'markdown': {
        const markdown = String(data.markdown ?? '');
        const note = FOOTNOTE_REFERENCE.exec(markdown);
        return note ? [footnoteReference(ctx, note[1]!)] : [{ type: 'text', value: markdown }];
      }
      default:
        return inlines(ctx, node.nodes);
    }
  });
}

function heading(ctx: RenderContext, node: Node, level: number): ElementContent {
  const text = textOf(node);
  let id = typeof node.data?.id === 'string' && node.data.id ? node.data.id : anchorOf(text);
  while (ctx.ids.anchors.has(id)) id = `${id}-${ctx.ids.next++}`;
  ctx.ids.anchors.add(id);
  return h(`h${level}`, { id }, [h('a.anchor', { href: `#${id}` }, '#'), ...inlines(ctx, node.nodes)]);
}

/**
 * The caption of an image, embed or file: its `caption` fragment with its formatting and
 * links (a figcaption such as `The <strong>diagram</strong>, see <a href=...>`), paragraphs
 * on lines of their own; else the plain caption text (`data.caption`, older documents).
 */
function caption(ctx: RenderContext, node: Node): Out {
  const fragment = node.fragments?.find((f) => f.fragment === 'caption');
  const lines = (fragment?.nodes ?? [])
    .map((block) => (block.object === 'text' ? inlines(ctx, [block]) : inlines(ctx, block.nodes)))
    .filter((line) => line.length > 0);
  if (lines.length > 0 && captionText(node).trim() !== '') return [h('figcaption', lines.flatMap((line, i) => (i === 0 ? line : [h('br'), ...line])))];
  const text = captionText(node);
  return text ? [h('figcaption', text)] : [];
}

/**
 * An image with its stored dimensions (no layout shift while it loads), loaded lazily; a
 * wide raster image of the space also offers its resized variants (`srcset`, shared/content/images).
 */
function img(ctx: RenderContext, data: Record<string, unknown>): ElementContent {
  const file = findFile(ctx.manifest, data.ref);
  const size = displaySize(data, file?.dimensions);
  const src = refHref(ctx, data.ref).href;
  const sources = file && src !== '#' ? imageSources(file, src) : undefined;
  return h('img', { src, ...sources, alt: String(data.alt ?? ''), width: size?.width, height: size?.height, loading: 'lazy', decoding: 'async' });
}

/**
 * The size an image is shown at: the author's (GitBook's resize: `data.width`, pixels or
 * `{value, unit: '%'}` of the column, its height following the file's proportions), else the
 * file's own dimensions.
 */
function displaySize(data: Record<string, unknown>, intrinsic: { width: number; height: number } | undefined): { width: number | string; height?: number } | undefined {
  const width = data.width;
  if (typeof width === 'number' && Number.isFinite(width) && width > 0) {
    return { width: Math.round(width), ...(intrinsic?.width ? { height: Math.round((width * intrinsic.height) / intrinsic.width) } : {}) };
  }
  const percent = width && typeof width === 'object' ? (width as { value?: unknown; unit?: unknown }) : undefined;
  if (percent?.unit === '%' && typeof percent.value === 'number' && percent.value > 0 && percent.value <= 100) return { width: `${percent.value}%` };
  return intrinsic;
}

/**
 * An image with a dark-theme variant (`data.refDark`, GitBook's `<picture>` with a
 * `prefers-color-scheme: dark` source) is both images, the stylesheet showing the one of the
 * page's theme (the toggle's choice, else the system's); others are the one image.
 */
function themedImage(ctx: RenderContext, data: Record<string, unknown>): Out {
  const light = img(ctx, data);
  if (!findFile(ctx.manifest, data.refDark) || light.type !== 'element') return [light];
  const dark = img(ctx, { ...data, ref: data.refDark });
  if (dark.type !== 'element') return [light];
  light.properties.className = ['image-light'];
  dark.properties.className = ['image-dark'];
  return [light, dark];
}

function image(ctx: RenderContext, node: Node): ElementContent {
  // The caption is the image's caption fragment, not `data`.
  return h('figure.image', [...themedImage(ctx, node.data ?? {}), ...caption(ctx, node)]);
}

/** A code block: header (title, language), then the code highlighted when shiki knows the language. */
function codeBlock(ctx: RenderContext, node: Node): ElementContent {
  const data = node.data ?? {};
  const code = (node.nodes ?? []).map(textOf).join('\n');
  const syntax = typeof data.syntax === 'string' && data.syntax ? data.syntax : undefined;
  const title = typeof data.title === 'string' && data.title ? data.title : undefined;
  const language = syntax ? { className: [`language-${syntax}`] } : {};
  const pre = ctx.code.highlight(code, syntax) ?? h('pre', h('code', code));
  const codeElement = pre.children.find((c) => c.type === 'element' && c.tagName === 'code');
  if (codeElement?.type === 'element') Object.assign(codeElement.properties, language);
  if (data.lineNumbers) {
    // shiki's <pre> carries its classes as `class`, the plain one none: one className list either way.
    const classes = pre.properties.className ?? pre.properties.class;
    delete pre.properties.class;
    pre.properties.className = [...(Array.isArray(classes) ? classes.map(String) : typeof classes === 'string' ? classes.split(/\s+/) : []), 'line-numbers'];
  }
  const header = title || syntax
    ? [h('figcaption.code-header', [...(title ? [h('span.code-title', title)] : []), ...(syntax ? [h('span.code-lang', syntax)] : [])])]
    : [];
  return h('figure.code', [...header, pre]);
}

/**
 * Footnotes. The markdown library keeps GFM footnotes as written (`markdown` nodes: the
 * reference `[^label]` inline, the definition `[^label]: text` as a block); the reader shows
 * the reference as a superscript link to its note and the note, its text read as markdown,
 * with a link back, as GitHub and GitBook readers know them.
 */
const FOOTNOTE_REFERENCE = /^\[\^([^\]\s]{1,100})\]$/;
const FOOTNOTE_DEFINITION = /^\[\^([^\]\s]{1,100})\]:[ \t]*([\s\S]*)$/;
const footnoteId = (label: string) => `fn-${anchorOf(label) || 'note'}`;

function footnoteReference(ctx: RenderContext, label: string): ElementContent {
  const id = `${footnoteId(label)}-ref`;
  // The first reference is where the note's back link returns to; later ones have no id of their own.
  const first = !ctx.ids.anchors.has(id);
  if (first) ctx.ids.anchors.add(id);
  return h('sup.footnote-ref', h('a', { href: `#${footnoteId(label)}`, id: first ? id : undefined, ariaLabel: words(ctx, 'footnote', { label }) }, label));
}

function footnoteDefinition(ctx: RenderContext, label: string, text: string, depth: number): ElementContent {
  let body: Out;
  try {
    body = renderBlocks(ctx, markdownToDocument(text.replace(/\n[ \t]{1,4}/g, '\n')).document.nodes as Node[], depth);
  } catch {
    body = [h('p', text)];
  }
  const back = h('a.footnote-back', { href: `#${footnoteId(label)}-ref`, ariaLabel: words(ctx, 'footnoteBack', { label }) }, '↩');
  // The label, then the note's first paragraph, then the way back.
  const [first, ...rest] = body;
  const lead = first?.type === 'element' && first.tagName === 'p' ? h('p', [h('span.footnote-label', `${label}.`), ' ', ...first.children, ' ', back]) : undefined;
  return h('div.footnote', { id: footnoteId(label) }, lead ? [lead, ...rest] : [h('p', [h('span.footnote-label', `${label}.`), ' ', back]), ...body]);
}

/** An embed is a link card, and only for a web page (http or https). */
function embedUrl(value: unknown): URL | undefined {
  if (typeof value !== 'string' || !URL.canParse(value)) return undefined;
  const url = new URL(value);
  return url.protocol === 'https:' || url.protocol === 'http:' ? url : undefined;
}

const HINT_STYLES = new Map<string, MessageKey>([['info', 'hintInfo'], ['success', 'hintSuccess'], ['warning', 'hintWarning'], ['danger', 'hintDanger']]);

/** What renderers outside this file may call back into (blocks-extended.ts, tables.ts). */
function helpers(ctx: RenderContext, depth: number): ExtendedRenderHelpers {
  return {
    ctx,
    blocks: (nodes) => renderBlocks(ctx, nodes, depth),
    inlines: (nodes) => inlines(ctx, nodes),
    image: (data) => img(ctx, data),
    href: (ref) => refHref(ctx, ref).href,
  };
}

export function renderBlocks(ctx: RenderContext, nodes: Node[] = [], depth = 0): Out {
  return nodes.flatMap((node) => renderBlock(ctx, node, depth));
}

function renderBlock(ctx: RenderContext, node: Node, depth: number): Out {
  if (node.object === 'text') return [h('p', inlines(ctx, [node]))];
  const data = node.data ?? {};
  const children = () => renderBlocks(ctx, node.nodes, depth);
  switch (node.type) {
    case 'paragraph': {
      const body = inlines(ctx, node.nodes);
      return body.length > 0 ? [h('p', body)] : [];
    }
    case 'heading-1': return [heading(ctx, node, 2)];
    case 'heading-2': return [heading(ctx, node, 3)];
    case 'heading-3': return [heading(ctx, node, 4)];
    case 'divider': return [h('hr')];
    case 'blockquote': return [h('blockquote', children())];
    case 'list-unordered':
    case 'list-ordered':
    case 'list-tasks': {
      const tasks = node.type === 'list-tasks';
      const start = node.type === 'list-ordered' && typeof data.start === 'number' && data.start !== 1 ? data.start : undefined;
      const items = (node.nodes ?? []).map((item) => h('li', [
        ...(tasks ? [h('input', { type: 'checkbox', disabled: true, checked: item.data?.checked === true, ariaLabel: words(ctx, item.data?.checked === true ? 'taskDone' : 'taskTodo') }), { type: 'text' as const, value: ' ' }] : []),
        ...renderBlocks(ctx, item.nodes, depth),
      ]));
      return [h(node.type === 'list-ordered' ? 'ol' : 'ul', { start, className: tasks ? ['tasks'] : undefined }, items)];
    }
    case 'code':
      return [codeBlock(ctx, node)];
    case 'table':
      return renderTable(node, helpers(ctx, depth));
    case 'math':
      return [renderMath(ctx.math, data.formula, true)];
    case 'images': return [h('div.images', (node.nodes ?? []).map((n) => image(ctx, n)))];
    case 'image': return [image(ctx, node)];
    case 'hint': {
      // The style's name labels the note (its icon is drawn by the stylesheet); a leading heading is its title.
      const style = HINT_STYLES.has(String(data.style)) ? String(data.style) : 'info';
      // A leading heading stays the author's heading (level, id, anchor: Git round trips and
      // links keep it); the stylesheet shows it as the hint's title, and "On this page" leaves
      // headings inside hints out.
      return [h('div', { className: ['hint', `hint-${style}`], role: 'note', ariaLabel: words(ctx, HINT_STYLES.get(style)!) }, children())];
    }
    case 'tabs': {
      const group = `tabs-${ctx.ids.next++}`;
      const items = node.nodes ?? [];
      const buttons = items.map((item, i) => h('button', { type: 'button', role: 'tab', id: `${group}-tab-${i}`, ariaControls: `${group}-panel-${i}`, ariaSelected: String(i === 0) }, String(item.data?.title ?? words(ctx, 'tab', { number: i + 1 }))));
      const panels = items.map((item, i) => h('div.tab-panel', { role: 'tabpanel', id: `${group}-panel-${i}`, ariaLabelledBy: `${group}-tab-${i}`, hidden: i !== 0 }, renderBlocks(ctx, item.nodes, depth)));
      return [h('div.tabs', { dataTabs: true }, [h('div.tab-list', { role: 'tablist' }, buttons), ...panels])];
    }
    case 'stepper':
      return [h('ol.stepper', (node.nodes ?? []).map((step) => h('li.step', renderBlocks(ctx, step.nodes, depth))))];
    case 'content-ref': {
      const { href, label } = refHref(ctx, data.ref);
      return [h('a.content-ref', { href }, [h('span.content-ref-title', label ?? href), h('span', { ariaHidden: 'true' }, '→')])];
    }
    case 'embed': {
      const url = embedUrl(data.url);
      if (!url) return [];
      return [h('figure.embed', [h('a', { href: url.href, rel: ['noopener'], target: '_blank' }, [h('span.embed-host', url.hostname), ' ', h('span.embed-url', url.href)]), ...caption(ctx, node)])];
    }
    case 'file': {
      const { href, label } = refHref(ctx, data.ref);
      return [h('figure.file', [h('a', { href, download: true }, label ?? words(ctx, 'download')), ...caption(ctx, node)])];
    }
    case 'reusable-content': {
      const id = includeId(ctx.manifest, data);
      const doc = id ? ctx.includes.get(id) : undefined;
      if (!doc || depth >= MAX_INCLUDE_DEPTH) return [];
      return [h('div.include', renderBlocks(ctx, doc.nodes as Node[], depth + 1))];
    }
    case 'html':
      return [raw(rawHtml(ctx, data))];
    case 'integration':
      return [integrationBlockHast(ctx.integrationBlocks, data, {
        markdown: (source) => {
          try {
            return renderBlocks(ctx, markdownToDocument(source).document.nodes as Node[], depth + 1);
          } catch {
            return [h('p', source)];
          }
        },
        frame: (url, aspectRatio) => frameSlot(ctx, url, aspectRatio),
      })];
    case 'markdown': {
      const markdown = String(data.markdown ?? '');
      const note = FOOTNOTE_DEFINITION.exec(markdown);
      return note ? [footnoteDefinition(ctx, note[1]!, note[2]!, depth)] : [h('pre.raw-markdown', h('code', markdown))];
    }
    default:
      return renderExtendedBlock(node, helpers(ctx, depth)) ?? children();
  }
}

/**
 * A webframe an integration's policy allows: a sandboxed iframe (scripts in its own, other
 * origin; no top navigation), sanitized pages keep no iframe, so a placeholder with a per-render
 * nonce stands in until the layout puts the frame in (as math: shared/reader/math.ts).
 */
function frameSlot(ctx: RenderContext, url: URL, aspectRatio: number | undefined): ElementContent {
  const { frames } = ctx;
  if (!frames) return h('a', { href: url.href, rel: ['noopener', 'noreferrer', 'nofollow'] }, url.href);
  const id = `frame-${frames.nonce}-${frames.slots.size}`;
  frames.origins.add(url.origin);
  frames.slots.set(id, h('iframe', {
    src: url.href, title: url.hostname, sandbox: 'allow-scripts allow-same-origin allow-popups allow-forms', loading: 'lazy',
    // Inline styles are refused by the page's CSP: a ratio sets the height from the column's 720 px.
    referrerPolicy: 'no-referrer', width: '100%', height: String(aspectRatio ? Math.round(Math.min(Math.max(720 / aspectRatio, 120), 1200)) : 400),
  }));
  return h('span', { id });
}

/** A rendered page body (not yet sanitized), the CSS of its highlighted code's token classes and its formulas' MathML. */
export interface RenderedDocument {
  nodes: ElementContent[];
  codeCss: string;
  /** MathML and integration webframes by placeholder id, for the layout to put in place after sanitizing (shared/reader/math.ts). */
  math: Map<string, ElementContent>;
  /** Origins of the integration webframes the page shows (its CSP's frame-src). */
  frameOrigins: string[];
}

/** Renders a (variables-evaluated) page document. */
export async function renderDocument(document: StoredDocument, ctx: Omit<RenderContext, keyof Prepared | 'ids'>): Promise<RenderedDocument> {
  const prepared = await prepareRender(document, ctx.manifest, ctx.fileHref);
  const frames = { nonce: randomBytes(12).toString('hex'), slots: new Map<string, ElementContent>(), origins: new Set<string>() };
  const full: RenderContext = { ...ctx, ...prepared, ids: { next: 0, anchors: new Set() }, frames };
  const nodes = renderBlocks(full, document.nodes as Node[]);
  const slots = new Map([...(prepared.math?.slots ?? []), ...frames.slots]);
  return { nodes, codeCss: prepared.code.css(), math: slots, frameOrigins: [...frames.origins] };
}
