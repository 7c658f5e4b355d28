/**
 * `<img>` tags inside raw HTML (`html` blocks and inlines). GitBook writes drawings and sized
 * images as HTML — `<img src="../.gitbook/assets/drawing.svg" alt="...">`, alone or inside
 * `<figure>`, `<p>`, `<div>` — with `src` relative to the page's file, like a markdown image.
 * The HTML stays as written (its other attributes and wrappers have no block form); its
 * relative sources are listed beside it as `data.images: [{src, ref}]`, `src` as written and
 * `ref` a file ref that Git import and markdown edits resolve like any image's. Printing puts
 * each ref's target back into its tags' `src` (the same bytes while the file did not move),
 * and the reader points them at the file's URL (shared/reader/html-images.ts).
 *
 * Tags are found by parsing the HTML (parse5 through hast-util-from-html, with the offsets
 * of each attribute), and rewritten by splicing those offsets: nothing else of the HTML
 * changes, and an unclosed wrapper (`<div>` closed in a later block) stays unclosed.
 */
import type { Element, Nodes } from 'hast';
import { fromHtml } from 'hast-util-from-html';
import { stringifyEntities } from 'stringify-entities';
import { decodeTargetPath, fileRefFromSource } from './refs.ts';
import type { ContentRef } from './types.ts';

/** A relative image source of an HTML block and the file it refers to. */
export interface HtmlImage {
  src: string;
  ref: ContentRef;
}

/** An `<img>` tag of the HTML with its decoded attributes and where they are written. */
export interface ImageTag {
  src: string;
  /** Hast properties as parsed (`width`, `srcSet`, ...). */
  properties: Element['properties'];
  /** Offset just after `<img`, where attributes can be inserted. */
  nameEnd: number;
  /** Offsets of the whole `src="..."` attribute. */
  srcStart: number;
  srcEnd: number;
}

// Cheap test first: most inline HTML (`<kbd>`, `<br>`, `</a>`) has no image and is not parsed.
const MAY_HAVE_IMAGE = /<img[\s/>]/i;

export function imageTags(html: string): ImageTag[] {
  if (!MAY_HAVE_IMAGE.test(html)) return [];
  const tags: ImageTag[] = [];
  const visit = (node: Nodes) => {
    if (node.type === 'element' && node.tagName === 'img') {
      const position = (node.data as { position?: { opening?: { start: { offset?: number } }; properties?: Record<string, { start: { offset?: number }; end: { offset?: number } } | undefined> } } | undefined)?.position;
      const start = position?.opening?.start.offset;
      const src = position?.properties?.src;
      if (start !== undefined && src?.start.offset !== undefined && src.end.offset !== undefined && typeof node.properties.src === 'string') {
        tags.push({ src: node.properties.src, properties: node.properties, nameEnd: start + 4, srcStart: src.start.offset, srcEnd: src.end.offset });
      }
    }
    if ('children' in node) for (const child of node.children) visit(child);
  };
  visit(fromHtml(html, { fragment: true, verbose: true }));
  return tags;
}

/** `data.images` of an HTML block or inline: its relative image sources, once each, in order. */
export function htmlImagesData(html: string): { images?: HtmlImage[] } {
  const images: HtmlImage[] = [];
  for (const { src } of imageTags(html)) {
    const ref = fileRefFromSource(src);
    if (ref.kind === 'file' && src !== '' && !images.some((i) => i.src === src)) images.push({ src, ref });
  }
  return images.length > 0 ? { images } : {};
}

/** The `data.images` of a stored node, ignoring malformed entries (API documents are free-form). */
export function htmlImagesOf(data: Record<string, unknown> | undefined): HtmlImage[] {
  const images = data?.images;
  if (!Array.isArray(images)) return [];
  return images.filter((i): i is HtmlImage => !!i && typeof i === 'object' && typeof i.src === 'string' && !!i.ref && typeof i.ref === 'object');
}

/** `name="value"`, the value's `&` and `"` written as character references (as hast-util-to-html does). */
const attribute = (name: string, value: string | number) => `${name}="${stringifyEntities(String(value), { subset: ['&', '"'] })}"`;

/** What to change in one tag: a new `src`, and attributes written right after `<img` (the first of duplicates wins). */
export interface TagChange {
  src?: string;
  insert?: Record<string, string | number>;
}

/** The HTML with each `<img>` changed as `change` says (undefined: left as written). */
export function rewriteImageTags(html: string, change: (tag: ImageTag) => TagChange | undefined): string {
  const edits: { start: number; end: number; text: string }[] = [];
  for (const tag of imageTags(html)) {
    const wanted = change(tag);
    if (!wanted) continue;
    const insert = Object.entries(wanted.insert ?? {}).map(([name, value]) => ` ${attribute(name, value)}`).join('');
    if (insert) edits.push({ start: tag.nameEnd, end: tag.nameEnd, text: insert });
    if (wanted.src !== undefined && wanted.src !== tag.src) edits.push({ start: tag.srcStart, end: tag.srcEnd, text: attribute('src', wanted.src) });
  }
  // From the end, so earlier offsets stay valid.
  edits.sort((a, b) => b.start - a.start);
  let out = html;
  for (const edit of edits) out = out.slice(0, edit.start) + edit.text + out.slice(edit.end);
  return out;
}

/**
 * The HTML as printed: each listed source replaced by its ref's target (e.g. the file's new
 * relative path). A source naming the same path in another spelling (`a%20b.png` for
 * `a b.png`) is left as written, so an unchanged page prints the same bytes.
 */
export function printedHtml(html: string, data: Record<string, unknown> | undefined, targetOf: (ref: unknown) => string): string {
  const images = htmlImagesOf(data);
  if (images.length === 0) return html;
  return rewriteImageTags(html, (tag) => {
    const image = images.find((i) => i.src === tag.src);
    const target = image ? targetOf(image.ref) : '';
    return target && decodeTargetPath(target) !== decodeTargetPath(tag.src) ? { src: target } : undefined;
  });
}
