import type { ManifestFile } from '../content/types.ts';
import { listedRefs, rewriteRefTags } from '../content/markdown/html-images.ts';
import { imageSources } from '../content/images/variants.ts';

/**
 * Authors' raw HTML images (`<img src="../.gitbook/assets/drawing.svg">`, listed in the block's
 * `data.images`, shared/content/markdown/html-images.ts) as the reader serves markdown images:
 * `src` is the file's stable URL under the site, with its stored width and height (unless the
 * author sized the image), `loading="lazy"`, and the resized variants of a wide raster image.
 * The HTML stays a raw string here: the page is sanitized as a whole afterwards, so the
 * author's attributes still go through the allow-list. Sources that name no file of the
 * space are left as written. Their relative links (`<a href="../setup.md" class="button
 * primary">`, listed in `data.links`) point where the same markdown link would (`linkHref`).
 */

export type FileOfRef = (ref: unknown) => { file: ManifestFile; href: string } | undefined;

export function htmlWithFileUrls(html: string, data: Record<string, unknown> | undefined, fileOf: FileOfRef, linkHref: (ref: unknown) => string): string {
  const refOf = listedRefs(data);
  if (!refOf) return html;
  return rewriteRefTags(html, (tag) => {
    const ref = refOf(tag);
    if (!ref) return undefined;
    if (tag.tagName === 'a') return { value: linkHref(ref) };
    const found = fileOf(ref);
    if (!found) return undefined;
    const { file, href } = found;
    const insert: Record<string, string | number> = {};
    const sized = tag.properties.width !== undefined || tag.properties.height !== undefined;
    if (!sized && file.dimensions) Object.assign(insert, { width: file.dimensions.width, height: file.dimensions.height });
    // An author's srcset would name paths next to the page: the variants' list comes first, so it wins.
    const sources = imageSources(file, href);
    if (sources) Object.assign(insert, { srcset: sources.srcSet, sizes: sources.sizes });
    return { value: href, insert: { ...insert, loading: 'lazy', decoding: 'async' } };
  });
}
