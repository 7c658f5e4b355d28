import type { Element, ElementContent } from 'hast';
import { h } from 'hastscript';
import type { ManifestPage } from '../content/types.ts';
import { deepFreeze } from '../deep-freeze.ts';
import type { ReaderIntl } from './messages.ts';
import { pageTree } from './navigation.ts';
import { sanitizeNodes } from './sanitize.ts';

/** Per page tree (a manifest's `pages`, kept by the instance with its manifest): the sanitized sidebar navigation, by base path, language and label. */
const kept = new WeakMap<ManifestPage[], Map<string, ElementContent[]>>();

/**
 * The sidebar's `<nav>` of a space's pages, sanitized as every piece of site data is
 * (sanitize.ts), once per page tree instead of once per page: serializing a 500-page tree,
 * parsing it back and applying the schema took 8–30 ms of every page's first rendering, the
 * same work for each page of the space. What differs from page to page are two marks, both
 * allowed by READER_SCHEMA: the open page's link `aria-current="page"` and the `<details>`
 * above it open. So each page gets the kept tree with its marks set on copies of the nodes on
 * its path; the rest is shared (frozen). The page's own unsanitized tree (cheap to build)
 * says where the marks go; should the kept tree not have its shape, the page's tree is
 * sanitized on its own, as before.
 */
export function sanitizedPageTree(pages: ManifestPage[], base: string, current: string | undefined, intl: ReaderIntl, label: string): ElementContent[] {
  const nav = (open: string | undefined) => [h('nav', { ariaLabel: label }, pageTree(pages, base, open, intl))];
  let byKey = kept.get(pages);
  if (!byKey) kept.set(pages, (byKey = new Map()));
  const key = `${base}\n${intl.lang}\n${label}`;
  let clean = byKey.get(key);
  if (!clean) byKey.set(key, (clean = deepFreeze(sanitizeNodes(nav(undefined)))));
  const marked = nav(current);
  return withMarks(clean, marked) ?? sanitizeNodes(marked);
}

/** `clean` with the marks of `marked` (the same tree, unsanitized); undefined when their shapes differ. */
function withMarks(clean: ElementContent[], marked: ElementContent[]): ElementContent[] | undefined {
  if (clean.length !== marked.length) return undefined;
  let out: ElementContent[] | undefined;
  for (let i = 0; i < clean.length; i++) {
    const next = markNode(clean[i]!, marked[i]!);
    if (next === undefined) return undefined;
    if (next !== clean[i]) (out ??= clean.slice())[i] = next;
  }
  return out ?? clean;
}

function markNode(clean: ElementContent, marked: ElementContent): ElementContent | undefined {
  if (clean.type !== marked.type) return undefined;
  if (clean.type !== 'element') return clean;
  const source = marked as Element;
  if (clean.tagName !== source.tagName) return undefined;
  const children = withMarks(clean.children, source.children);
  if (!children) return undefined;
  const current = source.tagName === 'a' && source.properties.ariaCurrent === 'page';
  const open = source.tagName === 'details' && source.properties.open === true;
  if (!current && !open && children === clean.children) return clean;
  return { ...clean, properties: { ...clean.properties, ...(current ? { ariaCurrent: 'page' } : {}), ...(open ? { open: true } : {}) }, children };
}
