import type { LocatedPage } from '../../shared/content/tree.ts';
import type { Manifest, ManifestPage, StoredDocument } from '../../shared/content/types.ts';
import { assignPaths } from '../../shared/git/export.ts';
import { printPageFile } from '../../shared/git/pages.ts';
import { presentPageWithDocument, type PageDocumentOptions } from '../../shared/presenters/page-document.ts';
import type { ContentContext } from '../../shared/presenters/revision.ts';

/**
 * A page read with its content. With `format=markdown` the markdown is exactly the file Git
 * export writes for the page (shared/git/pages.ts printPageFile): links and images as paths
 * relative to the page's file, frontmatter, and `# Title` only where the file has one.
 */
export async function presentPageContent(located: LocatedPage, content: ContentContext & { manifest: Manifest }, options: PageDocumentOptions) {
  if (options.format !== 'markdown') return presentPageWithDocument(located, content, options);
  const { document, ...page } = (await presentPageWithDocument(located, content, { ...options, format: 'document' })) as { document: StoredDocument };
  return { ...page, markdown: pageFileMarkdown(located.page, document, content.manifest) };
}

/** The page's file as Git export prints it, at the path export gives it. */
export function pageFileMarkdown(page: ManifestPage, document: StoredDocument, manifest: Manifest): string {
  const paths = assignPaths(manifest);
  return printPageFile(page, document, paths.pages.get(page.id) ?? `${page.slug}.md`, paths);
}
