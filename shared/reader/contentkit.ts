import type { ElementContent } from 'hast';
import { h } from 'hastscript';
import * as v from 'valibot';

/**
 * ContentKit (an integration's `ui_render` answer, @gitbook/api's ContentKitRenderOutput) as
 * static hast, the elements GitBook's published renderer draws (GitbookIO/gitbook
 * packages/react-contentkit): block, text, link, markdown, codeblock, image, button, divider,
 * hstack, vstack, box, card, hint, step and webframe. Validated with valibot: an element of
 * an unknown type (an input, a select...) or a malformed one is left out, its siblings stay;
 * only an answer without a block at its root is refused. Nothing here is trusted as HTML:
 * the page's sanitizer (shared/reader/sanitize.ts) still cleans the result, and links and
 * images keep only http(s) URLs here already. Actions other than opening a URL are inert
 * (no script runs them on a published page).
 */

/** Nesting kept at most: deeper elements are left out. */
export const MAX_CONTENTKIT_DEPTH = 24;

const text = v.string();
/** ContentKitURL: `{host, pathname, query}`, or a plain string. */
const UrlSchema = v.union([text, v.object({ host: text, pathname: text, query: v.optional(v.record(v.string(), v.unknown())) })]);

export type Element = { type: string } & Record<string, unknown>;

/** A list of children: each item parsed on its own, the ones that are no known element dropped. */
const children = (item: () => v.GenericSchema<unknown, unknown>) => v.pipe(
  v.array(v.unknown()),
  v.transform((items) => items.flatMap((entry) => {
    const parsed = v.safeParse(item(), entry);
    return parsed.success ? [parsed.output] : [];
  })),
);

const TextSchema: v.GenericSchema<unknown, Element> = v.object({
  type: v.literal('text'),
  style: v.optional(v.picklist(['bold', 'italic', 'code', 'strikethrough'])),
  children: v.union([text, children(() => v.union([text, TextSchema, LinkSchema]))]),
});
const LinkSchema: v.GenericSchema<unknown, Element> = v.object({
  type: v.literal('link'),
  target: v.object({ url: UrlSchema }),
  children: v.union([text, children(() => text)]),
});
const ImageSchema = v.object({ type: v.literal('image'), source: v.object({ url: text }), aspectRatio: v.optional(v.number()) });
const InlineSchema = v.union([TextSchema, ImageSchema, LinkSchema]);
const ButtonSchema = v.object({
  type: v.literal('button'), label: v.optional(text), tooltip: v.optional(text),
  style: v.optional(text), onPress: v.optional(v.unknown()),
});
const Descendant: v.GenericSchema<unknown, Element> = v.variant('type', [
  TextSchema as never, LinkSchema as never, ImageSchema, ButtonSchema,
  v.object({ type: v.literal('markdown'), content: text }),
  v.object({ type: v.literal('codeblock'), content: text, syntax: v.optional(text) }),
  v.object({ type: v.literal('divider') }),
  v.object({ type: v.picklist(['hstack', 'vstack', 'box']), children: children(() => Descendant) }),
  v.object({
    type: v.literal('card'), title: v.optional(text), hint: v.optional(v.union([text, children(() => InlineSchema)])),
    children: v.optional(children(() => Descendant)), buttons: v.optional(children(() => ButtonSchema)),
  }),
  v.object({ type: v.literal('hint'), children: children(() => InlineSchema) }),
  v.object({ type: v.literal('step'), title: v.optional(text), children: children(() => Descendant) }),
  v.object({ type: v.literal('webframe'), source: v.object({ url: text }), aspectRatio: v.optional(v.number()) }),
]) as never;

/** `{type: 'element', element: {type: 'block', children}}` (state and props are not used on a static page). */
export const RenderOutputSchema = v.object({
  type: v.optional(v.literal('element')),
  element: v.object({ type: v.literal('block'), children: children(() => Descendant) }),
});
export type ContentKitBlock = v.InferOutput<typeof RenderOutputSchema>['element'];

/** The block of an answer, or undefined when it is not ContentKit (a stack overflow of absurd nesting included). */
export function parseRenderOutput(body: string): ContentKitBlock | undefined {
  try {
    const parsed = v.safeParse(RenderOutputSchema, JSON.parse(body));
    return parsed.success ? parsed.output.element : undefined;
  } catch {
    return undefined;
  }
}

export interface ContentKitHelpers {
  /** Markdown as the reader renders a document's (its raw HTML sanitized with the page). */
  markdown(source: string): ElementContent[];
  /** A webframe as an iframe, when the integration's policy allows its URL; undefined for a link. */
  frame(url: URL, aspectRatio: number | undefined): ElementContent | undefined;
}

/** An http(s) URL, or undefined (javascript:, data:, relative and malformed URLs are not followed). */
export function webUrl(value: unknown): URL | undefined {
  let raw: string | undefined;
  if (typeof value === 'string') raw = value;
  else if (value && typeof value === 'object' && typeof (value as { host?: unknown }).host === 'string') {
    const { host, pathname, query } = value as { host: string; pathname?: string; query?: Record<string, unknown> };
    const search = new URLSearchParams(Object.entries(query ?? {}).filter(([, q]) => typeof q === 'string') as [string, string][]).toString();
    raw = `https://${host}${pathname ?? '/'}${search ? `?${search}` : ''}`;
  }
  if (raw === undefined || !URL.canParse(raw)) return undefined;
  const url = new URL(raw);
  return url.protocol === 'https:' || url.protocol === 'http:' ? url : undefined;
}

const EXTERNAL = { rel: ['noopener', 'noreferrer', 'nofollow'] };

/** A codeblock's `syntax` when it is a plain language name (it becomes a class name), else undefined. */
export function codeSyntax(el: Element): string | undefined {
  return typeof el.syntax === 'string' && /^[\w+#.-]{1,40}$/.test(el.syntax) ? el.syntax : undefined;
}

/** Where a button leads: the URL of an `@ui.url.open` action; other actions need the integration (undefined). */
export function buttonUrl(el: Element): URL | undefined {
  const action = el.onPress as { action?: unknown; url?: unknown } | undefined;
  return action?.action === '@ui.url.open' ? webUrl(action.url) : undefined;
}

function inline(node: unknown, depth: number): ElementContent[] {
  if (typeof node === 'string') return [{ type: 'text', value: node }];
  const el = node as Element;
  if (depth > MAX_CONTENTKIT_DEPTH) return [];
  const kids = (list: unknown) => (typeof list === 'string' ? [list] : (list as unknown[])).flatMap((c) => inline(c, depth + 1));
  switch (el.type) {
    case 'text': {
      const content = kids(el.children);
      const tag = { bold: 'strong', italic: 'em', code: 'code', strikethrough: 's' }[el.style as string];
      return tag ? [h(tag, content)] : content;
    }
    case 'link': {
      const url = webUrl((el.target as { url: unknown }).url);
      const content = kids(el.children);
      return url ? [h('a', { href: url.href, ...EXTERNAL }, content)] : content;
    }
    case 'image': {
      const url = webUrl((el.source as { url: unknown }).url);
      return url ? [h('img', { src: url.href, alt: '', loading: 'lazy', decoding: 'async' })] : [];
    }
    default: return [];
  }
}

function button(el: Element): ElementContent {
  const label = String(el.label ?? el.tooltip ?? '');
  const url = buttonUrl(el);
  const className = ['button', el.style === 'primary' ? 'primary' : 'secondary'];
  // Only opening a URL works without the integration: other actions re-render it, left inert.
  return url ? h('a', { href: url.href, className, ...EXTERNAL }, label) : h('span', { className }, label);
}

function element(el: Element, helpers: ContentKitHelpers, depth: number): ElementContent[] {
  if (depth > MAX_CONTENTKIT_DEPTH) return [];
  const kids = (list: unknown) => ((list as Element[] | undefined) ?? []).flatMap((c) => element(c, helpers, depth + 1));
  switch (el.type) {
    case 'text': return [h('p', inline(el, depth))];
    case 'link':
    case 'image': return inline(el, depth);
    case 'markdown': return helpers.markdown(String(el.content));
    case 'codeblock': {
      const syntax = codeSyntax(el);
      return [h('pre', h('code', { className: syntax ? [`language-${syntax}`] : undefined }, String(el.content)))];
    }
    case 'button': return [button(el)];
    case 'divider': return [h('hr')];
    case 'hstack':
    case 'vstack':
    case 'box': return [h('div', { className: [`contentkit-${el.type}`] }, kids(el.children))];
    case 'card': {
      const hint = typeof el.hint === 'string' ? [{ type: 'text' as const, value: el.hint }] : ((el.hint as unknown[] | undefined) ?? []).flatMap((c) => inline(c, depth + 1));
      return [h('div.contentkit-card', [
        ...(el.title ? [h('p.contentkit-card-title', h('strong', String(el.title)))] : []),
        ...(hint.length > 0 ? [h('p.contentkit-card-hint', hint)] : []),
        ...kids(el.children),
        ...((el.buttons as Element[] | undefined) ?? []).map(button),
      ])];
    }
    case 'hint': return [h('p.contentkit-hint', (el.children as unknown[]).flatMap((c) => inline(c, depth + 1)))];
    case 'step': return [h('div.contentkit-step', [...(el.title ? [h('p', h('strong', String(el.title)))] : []), ...kids(el.children)])];
    case 'webframe': {
      const url = webUrl((el.source as { url: unknown }).url);
      if (!url) return [];
      const aspectRatio = typeof el.aspectRatio === 'number' && el.aspectRatio > 0 ? el.aspectRatio : undefined;
      return [h('div.contentkit-webframe', [helpers.frame(url, aspectRatio) ?? h('a', { href: url.href, ...EXTERNAL }, url.href)])];
    }
    default: return [];
  }
}

/** A validated block as hast. */
export function contentKitHast(block: ContentKitBlock, helpers: ContentKitHelpers): ElementContent[] {
  return block.children.flatMap((child) => element(child as Element, helpers, 0));
}
