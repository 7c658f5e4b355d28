import { getJsonBlob } from '../content/blobs.ts';
import { evaluateDocument } from '../content/evaluate.ts';
import { documentToMarkdown, type JSONDocument } from '../content/markdown/index.ts';
import { emptyDocument } from '../content/initial.ts';
import type { LocatedPage } from '../content/tree.ts';
import type { Manifest, ManifestPage, StoredDocument } from '../content/types.ts';
import { presentPage, type ContentContext, type ContentOptions } from './revision.ts';
import type { RevisionPageOutput } from './schemas/revision.ts';

export interface PageDocumentOptions extends ContentOptions {
  format: 'document' | 'markdown';
  evaluated: 'true' | 'false' | 'deterministic-only';
}

/** The frontmatter a page's markdown carries (its metadata, as Git Sync writes it). */
export function pageFrontmatter(page: ManifestPage) {
  return {
    ...(page.description ? { description: page.description } : {}),
    ...(page.icon ? { icon: page.icon } : {}),
    ...(page.hidden ? { hidden: true } : {}),
    ...(page.layout ? { layout: page.layout as Record<string, unknown> } : {}),
    ...(page.cover ? { cover: page.cover as Record<string, unknown> } : {}),
  };
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
    ? { ...base, markdown: pageMarkdown(page, document) }
    : { ...base, document };
}

/**
 * A page as markdown, the way Git Sync writes it: frontmatter for its metadata, `# Title`,
 * then the document. Inserting this markdown as a page gives the same page back.
 */
export function pageMarkdown(page: ManifestPage, document: StoredDocument): string {
  const title = {
    object: 'block', type: 'heading-1', key: 'title', data: {},
    nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: page.title, marks: [] }] }],
  };
  return documentToMarkdown({ ...document, nodes: [title, ...document.nodes] } as JSONDocument, pageFrontmatter(page));
}
