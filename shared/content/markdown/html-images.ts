/**
 * `<img>` and `<a>` tags inside raw HTML (`html` blocks and inlines). GitBook writes drawings
 * and sized images as HTML — `<img src="../.gitbook/assets/drawing.svg" alt="...">`, alone or
 * inside `<figure>`, `<p>`, `<div>` — and buttons as `<a href="../setup.md" class="button
 * primary">`, with `src` and `href` relative to the page's file, like a markdown image or link.
 * The HTML stays as written (its other attributes and wrappers have no block form); its
 * relative sources are listed beside it as `data.images: [{src, ref}]` and its relative links
 * as `data.links: [{href, ref}]`, as written with a ref that Git import and markdown edits
 * resolve like any image's or link's. Printing puts each ref's target back into its tags
 * (the same bytes while the target did not move), and the reader points them at the file's or
 * page's URL (shared/reader/html-images.ts).
 *
 * Tags are found by parsing the HTML (parse5 through hast-util-from-html, with the offsets
 * of each attribute), and rewritten by splicing those offsets: nothing else of the HTML
 * changes, and an unclosed wrapper (`<div>` closed in a later block) stays unclosed.
 */
import type { Element, Nodes } from 'hast';
import { fromHtml } from 'hast-util-from-html';
import { stringifyEntities } from 'stringify-entities';
import { decodeTargetPath, fileRefFromSource, refFromTarget } from './refs.ts';
import type { ContentRef } from './types.ts';

/** A relative image source of an HTML block and the file it refers to. */
export interface HtmlImage {
  src: string;
  ref: ContentRef;
}

/** A relative link of an HTML block (a button's `href`) and the page, anchor or file it refers to. */
export interface HtmlLink {
  href: string;
  ref: ContentRef;
}

/** An `<img>` (its `src`) or `<a>` (its `href`) of the HTML with its decoded attributes and where they are written. */
export interface RefTag {
  tagName: 'img' | 'a';
  /** The attribute's decoded value (`src` of an image, `href` of a link). */
  value: string;
  /** Hast properties as parsed (`width`, `srcSet`, ...). */
  properties: Element['properties'];
  /** Offset just after the tag's name, where attributes can be inserted. */
  nameEnd: number;
  /** Offsets of the whole `src="..."` / `href="..."` attribute. */
  valueStart: number;
  valueEnd: number;
}

const REF_ATTRIBUTE = { img: 'src', a: 'href' } as const;

// Cheap test first: most inline HTML (`<kbd>`, `<br>`, `</a>`) has no image or link and is not parsed.
const MAY_HAVE_REF = /<(?:img|a)[\s/>]/i;

/** The `<img src>` and `<a href>` tags of the HTML, in order. */
export function refTags(html: string): RefTag[] {
  if (!MAY_HAVE_REF.test(html)) return [];
  const tags: RefTag[] = [];
  const visit = (node: Nodes) => {
    if (node.type === 'element' && (node.tagName === 'img' || node.tagName === 'a')) {
      const tagName = node.tagName;
      const name = REF_ATTRIBUTE[tagName];
      const position = (node.data as { position?: { opening?: { start: { offset?: number } }; properties?: Record<string, { start: { offset?: number }; end: { offset?: number } } | undefined> } } | undefined)?.position;
      const start = position?.opening?.start.offset;
      const at = position?.properties?.[name];
      const value = node.properties[name];
      if (start !== undefined && at?.start.offset !== undefined && at.end.offset !== undefined && typeof value === 'string') {
        tags.push({ tagName, value, properties: node.properties, nameEnd: start + 1 + tagName.length, valueStart: at.start.offset, valueEnd: at.end.offset });
      }
    }
    if ('children' in node) for (const child of node.children) visit(child);
  };
  visit(fromHtml(html, { fragment: true, verbose: true }));
  return tags;
}

/**
 * `data.images` and `data.links` of an HTML block or inline: its relative image sources and
 * link targets (pages, anchors of other pages, files), once each, in order.
 */
export function htmlRefsData(html: string): { images?: HtmlImage[]; links?: HtmlLink[] } {
  const images: HtmlImage[] = [];
  const links: HtmlLink[] = [];
  for (const { tagName, value } of refTags(html)) {
    if (value === '') continue;
    if (tagName === 'img') {
      const ref = fileRefFromSource(value);
      if (ref.kind === 'file' && !images.some((i) => i.src === value)) images.push({ src: value, ref });
    } else {
      // An in-page `#anchor` and URLs mean the same on every page: only paths are refs.
      const ref = refFromTarget(value);
      const relative = ref.kind === 'page' || ref.kind === 'file' || (ref.kind === 'anchor' && !!ref.page);
      if (relative && !links.some((l) => l.href === value)) links.push({ href: value, ref });
    }
  }
  return { ...(images.length > 0 ? { images } : {}), ...(links.length > 0 ? { links } : {}) };
}

/** The `data.images` of a stored node, ignoring malformed entries (API documents are free-form). */
export function htmlImagesOf(data: Record<string, unknown> | undefined): HtmlImage[] {
  const images = data?.images;
  if (!Array.isArray(images)) return [];
  return images.filter((i): i is HtmlImage => !!i && typeof i === 'object' && typeof i.src === 'string' && !!i.ref && typeof i.ref === 'object');
}

/** The `data.links` of a stored node, ignoring malformed entries. */
export function htmlLinksOf(data: Record<string, unknown> | undefined): HtmlLink[] {
  const links = data?.links;
  if (!Array.isArray(links)) return [];
  return links.filter((l): l is HtmlLink => !!l && typeof l === 'object' && typeof l.href === 'string' && !!l.ref && typeof l.ref === 'object');
}

/** Every ref of an HTML node's images and links. */
export function htmlRefsOf(data: Record<string, unknown> | undefined): ContentRef[] {
  return [...htmlImagesOf(data).map((i) => i.ref), ...htmlLinksOf(data).map((l) => l.ref)];
}

/** `name="value"`, the value's `&` and `"` written as character references (as hast-util-to-html does). */
const attribute = (name: string, value: string | number) => `${name}="${stringifyEntities(String(value), { subset: ['&', '"'] })}"`;

/** What to change in one tag: a new `src`/`href`, and attributes written right after the tag's name (the first of duplicates wins). */
export interface TagChange {
  value?: string;
  insert?: Record<string, string | number>;
}

/** The HTML with each `<img src>` and `<a href>` changed as `change` says (undefined: left as written). */
export function rewriteRefTags(html: string, change: (tag: RefTag) => TagChange | undefined): string {
  const edits: { start: number; end: number; text: string }[] = [];
  for (const tag of refTags(html)) {
    const wanted = change(tag);
    if (!wanted) continue;
    const insert = Object.entries(wanted.insert ?? {}).map(([name, value]) => ` ${attribute(name, value)}`).join('');
    if (insert) edits.push({ start: tag.nameEnd, end: tag.nameEnd, text: insert });
    if (wanted.value !== undefined && wanted.value !== tag.value) edits.push({ start: tag.valueStart, end: tag.valueEnd, text: attribute(REF_ATTRIBUTE[tag.tagName], wanted.value) });
  }
  // From the end, so earlier offsets stay valid.
  edits.sort((a, b) => b.start - a.start);
  let out = html;
  for (const edit of edits) out = out.slice(0, edit.start) + edit.text + out.slice(edit.end);
  return out;
}

/**
 * The ref a tag's value stands for, among the images and links a node's data lists (read
 * once); undefined when it lists none, so the HTML need not be parsed.
 */
export function listedRefs(data: Record<string, unknown> | undefined): ((tag: RefTag) => ContentRef | undefined) | undefined {
  const images = htmlImagesOf(data);
  const links = htmlLinksOf(data);
  if (images.length === 0 && links.length === 0) return undefined;
  return (tag) => (tag.tagName === 'img' ? images.find((i) => i.src === tag.value)?.ref : links.find((l) => l.href === tag.value)?.ref);
}

/**
 * The HTML as printed: each listed source and link replaced by its ref's target (e.g. the
 * file's or page's new relative path). A value naming the same path in another spelling
 * (`a%20b.png` for `a b.png`) is left as written, so an unchanged page prints the same bytes.
 */
export function printedHtml(html: string, data: Record<string, unknown> | undefined, targetOf: (ref: unknown) => string): string {
  const refOf = listedRefs(data);
  if (!refOf) return html;
  return rewriteRefTags(html, (tag) => {
    const ref = refOf(tag);
    const target = ref ? targetOf(ref) : '';
    return target && decodeTargetPath(target) !== decodeTargetPath(tag.value) ? { value: target } : undefined;
  });
}
