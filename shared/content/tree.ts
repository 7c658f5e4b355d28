import type { Manifest, ManifestPage } from './types.ts';

/** A page with where it sits: its ancestors (root first) and its path of slugs. */
export interface LocatedPage {
  page: ManifestPage;
  ancestors: ManifestPage[];
  path: string;
}

/** Every page of the tree, depth first in document order. */
export function* walkPages(pages: ManifestPage[], ancestors: ManifestPage[] = []): Generator<LocatedPage> {
  for (const page of pages) {
    const path = [...ancestors.map((a) => a.slug), page.slug].join('/');
    yield { page, ancestors, path };
    yield* walkPages(page.pages, [...ancestors, page]);
  }
}

export function findPage(manifest: Manifest, pageId: string): LocatedPage | undefined {
  for (const located of walkPages(manifest.pages)) if (located.page.id === pageId) return located;
  return undefined;
}

export function findPageByPath(manifest: Manifest, path: string): LocatedPage | undefined {
  const wanted = path.replace(/^\/+|\/+$/g, '');
  for (const located of walkPages(manifest.pages)) if (located.path === wanted) return located;
  return undefined;
}

/** URL-safe slug of a title: lower case, ASCII letters and digits separated by dashes. */
export function slugify(title: string): string {
  const slug = title
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 100);
  return slug || 'page';
}
