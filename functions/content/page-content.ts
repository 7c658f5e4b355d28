import type { LocatedPage } from '../../shared/content/tree.ts';
import type { Manifest } from '../../shared/content/types.ts';
import { presentPageWithDocument, type PageDocumentOptions } from '../../shared/presenters/page-document.ts';
import type { ContentContext } from '../../shared/presenters/revision.ts';

/**
 * A page read with its content. With `format=markdown` the markdown is exactly the file Git
 * export writes for the page (shared/presenters/page-document.ts pageMarkdown): links and
 * images as paths relative to the page's file, frontmatter, and `# Title` only where the
 * file has one.
 */
export async function presentPageContent(located: LocatedPage, content: ContentContext & { manifest: Manifest }, options: PageDocumentOptions) {
  return presentPageWithDocument(located, content, options);
}
