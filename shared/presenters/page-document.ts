import { getJsonBlob } from '../content/blobs.ts';
import { evaluateDocument } from '../content/evaluate.ts';
import { emptyDocument } from '../content/initial.ts';
import type { LocatedPage } from '../content/tree.ts';
import type { Manifest, ManifestFile, ManifestPage, StoredDocument } from '../content/types.ts';
import { assignPaths } from '../git/export.ts';
import { printPageFile } from '../git/pages.ts';
import { presentPage, type ContentContext, type ContentOptions } from './revision.ts';
import type { RevisionPageOutput } from './schemas/revision.ts';

export interface PageDocumentOptions extends ContentOptions {
  format: 'document' | 'markdown';
  evaluated: 'true' | 'false' | 'deterministic-only';
}

/** A page's stored document (an empty one for pages without content, e.g. groups). */
export async function loadPageDocument(page: ManifestPage): Promise<StoredDocument> {
  return page.document ? getJsonBlob<StoredDocument>(page.document) : emptyDocument();
}

/** Page with its content: the rich `document`, or `markdown` with `format=markdown`. */
export async function presentPageWithDocument(
  located: LocatedPage,
  context: ContentContext & { manifest: Manifest },
  options: PageDocumentOptions,
): Promise<RevisionPageOutput & ({ document: StoredDocument } | { markdown: string })> {
  const { page, ancestors } = located;
  const parentPath = ancestors.map((a) => a.slug).join('/');
  let document = await loadPageDocument(page);
  if (options.evaluated !== 'false') {
    document = evaluateDocument(document, { space: context.manifest.variables, page: page.variables ?? {} });
  }
  const base = presentPage(page, parentPath, context, options);
  return options.format === 'markdown'
    ? { ...base, markdown: pageMarkdown(page, document, context.manifest) }
    : { ...base, document };
}

/** Absolute URLs for a page's links instead of repository paths (the reader's markdown exports). */
export interface LinkUrls {
  /** URL of a page by id; undefined keeps the page's repository path. */
  page(pageId: string): string | undefined;
  file(file: ManifestFile): string;
}

/**
 * A page as markdown: exactly the file Git export writes for it (shared/git/pages.ts
 * printPageFile), links and images as paths relative to the page's file, never ids. With
 * `urls` (the reader's `.md` files and llms-full.txt, which have no repository around them)
 * links to pages and files are those URLs instead. Inserting this markdown as a page gives
 * the same page back.
 */
export function pageMarkdown(page: ManifestPage, document: StoredDocument, manifest: Manifest, urls?: LinkUrls): string {
  const paths = assignPaths(manifest);
  const path = paths.pages.get(page.id) ?? `${page.slug}.md`;
  if (urls) {
    for (const id of paths.pages.keys()) {
      const url = urls.page(id);
      if (url) paths.pages.set(id, url);
    }
    for (const file of manifest.files) paths.files.set(file.id, urls.file(file));
  }
  return printPageFile(page, document, path, paths);
}
