import { ApiError, badRequest, conflict } from '../http/errors.ts';
import { randomId } from '../ids.ts';
import { ContentLimitError } from './markdown/limits.ts';
import { parseMarkdown } from './markdown/parse-pool.ts';
import { splitPageFile } from '../git/pages.ts';
import { putJsonBlob } from './blobs.ts';
import { resolveDocumentRefs } from './refs.ts';
import { pageFolder, resolveRelativeRefs, subpagesFolder } from './relative-refs.ts';
import { storeFileInput } from './file-input.ts';
import { emptyDocument } from './initial.ts';
import { findPage, slugify, walkPages } from './tree.ts';
import type { ContentChange } from './change-schema.ts';
import type { Manifest, ManifestFile, ManifestPage, StoredDocument } from './types.ts';

export interface ApplyOptions {
  now: string;
  /** Manifest of a revision to revert to; undefined = the change request's base. */
  revertSource(revisionId: string | undefined): Promise<Manifest>;
}

export interface ApplyResult {
  manifest: Manifest;
  /** Pages affected, in the order the batch first touched them. */
  pages: { page: string; operation: ContentChange['operation'] }[];
  insertedFiles: ManifestFile[];
}

type DocumentInput = { markdown: string } | { document: { object: 'document'; nodes: unknown[] } } | Record<string, never>;

/**
 * Applies a batch of content changes to a manifest, in order. Pure with respect to the
 * stored state: it only writes new blobs (documents, files); the caller stores the result
 * as one new revision, so the batch applies entirely or not at all.
 */
export async function applyChanges(base: Manifest, changes: ContentChange[], options: ApplyOptions): Promise<ApplyResult> {
  const manifest = structuredClone(base);
  const refs = assignRefs(manifest, changes);
  const result: ApplyResult = { manifest, pages: [], insertedFiles: [] };
  const touch = (page: string, operation: ContentChange['operation']) => {
    if (!result.pages.some((p) => p.page === page)) result.pages.push({ page, operation });
  };
  for (const [index, change] of changes.entries()) {
    const field = `changes.${index}`;
    switch (change.operation) {
      case 'insert_page': {
        const parent = change.into ? requirePage(manifest, change.into, `${field}.into`) : undefined;
        const siblings = parent ? parent.page.pages : manifest.pages;
        const folder = parent ? subpagesFolder(parent.page, parent.path) : '';
        const parsed = await parseDocument(change.document, refs, `${field}.document`, { manifest, folder });
        const title = parsed.title ?? change.title ?? 'Untitled';
        const page: ManifestPage = {
          id: (change.ref && refs.pages.get(change.ref)) || randomId(),
          type: 'document',
          title,
          slug: change.slug ?? slugify(title),
          document: await putJsonBlob(parsed.document),
          createdAt: options.now,
          updatedAt: options.now,
          pages: [],
        };
        applyMetadata(page, change, parsed.frontmatter);
        assertUniqueSlug(siblings, page, `${field}.slug`);
        siblings.splice(Math.min(change.at ?? siblings.length, siblings.length), 0, page);
        touch(page.id, change.operation);
        break;
      }
      case 'update_page': {
        const located = requirePage(manifest, change.page, `${field}.page`);
        const page = located.page;
        if (change.document !== undefined) {
          if (page.type !== 'document') throw badRequest(`${field}.document: page ${page.id} is a ${page.type} page; only document pages hold a document`);
          const parsed = await parseDocument(change.document, refs, `${field}.document`, { manifest, folder: pageFolder(page, located.path) });
          page.document = await putJsonBlob(parsed.document);
          if (parsed.title) page.title = parsed.title;
          applyMetadata(page, change, parsed.frontmatter);
        } else {
          applyMetadata(page, change, {});
        }
        if (change.title) page.title = change.title;
        if (change.slug) page.slug = change.slug;
        page.updatedAt = options.now;
        const currentSiblings = located.ancestors.at(-1)?.pages ?? manifest.pages;
        if (change.into !== undefined || change.at !== undefined) {
          const target = change.into === undefined
            ? currentSiblings
            : change.into === null ? manifest.pages : requirePage(manifest, change.into, `${field}.into`).page.pages;
          if (change.into && (change.into === page.id || [...walkPages(page.pages)].some((d) => d.page.id === change.into))) {
            throw badRequest(`${field}.into: a page cannot move into itself or its subpages`);
          }
          currentSiblings.splice(currentSiblings.indexOf(page), 1);
          const at = change.at ?? target.length;
          target.splice(Math.min(at, target.length), 0, page);
          assertUniqueSlug(target, page, `${field}.slug`);
        } else {
          assertUniqueSlug(currentSiblings, page, `${field}.slug`);
        }
        touch(page.id, change.operation);
        break;
      }
      case 'delete_page': {
        const located = requirePage(manifest, change.page, `${field}.page`);
        const siblings = located.ancestors.at(-1)?.pages ?? manifest.pages;
        siblings.splice(siblings.indexOf(located.page), 1);
        touch(change.page, change.operation);
        break;
      }
      case 'revert_page': {
        await revertPage(manifest, change.page, await options.revertSource(change.revision), field);
        touch(change.page, change.operation);
        break;
      }
      case 'insert_files': {
        for (const [fileIndex, input] of change.files.entries()) {
          const id = (input.ref && refs.files.get(input.ref)) || randomId();
          const file = await storeFileInput(input, id, `${field}.files.${fileIndex}`);
          manifest.files.push(file);
          result.insertedFiles.push(file);
        }
        break;
      }
    }
  }
  return result;
}

/** Ids for every `ref` of the batch, so any change can link to a page or file inserted by another. */
function assignRefs(manifest: Manifest, changes: ContentChange[]) {
  const pages = new Map<string, string>();
  const files = new Map<string, string>();
  const paths = new Map([...walkPages(manifest.pages)].map((p) => [p.path, p.page.id]));
  const claim = (ref: string, field: string) => {
    if (pages.has(ref) || files.has(ref)) throw badRequest(`${field}: ref ${ref} is used twice in the batch`);
    if (paths.has(ref)) throw badRequest(`${field}: ref ${ref} collides with the path of an existing page`);
  };
  for (const [index, change] of changes.entries()) {
    if (change.operation === 'insert_page' && change.ref) {
      claim(change.ref, `changes.${index}.ref`);
      pages.set(change.ref, randomId());
    }
    if (change.operation === 'insert_files') {
      for (const [i, file] of change.files.entries()) {
        if (!file.ref) continue;
        claim(file.ref, `changes.${index}.files.${i}.ref`);
        files.set(file.ref, randomId());
      }
    }
  }
  return { pages, files, paths };
}

interface ParsedDocument {
  document: StoredDocument;
  frontmatter: Record<string, unknown>;
  title?: string;
}

/**
 * A document from the change: markdown is parsed off the main thread and read as Git Sync
 * reads a page file (shared/git/pages.ts splitPageFile), a rich document
 * is taken as is (its depth and size were checked with the body: change-schema.ts).
 */
async function parseDocument(input: DocumentInput, refs: ReturnType<typeof assignRefs>, field: string, at: { manifest: Manifest; folder: string }): Promise<ParsedDocument> {
  if ('markdown' in input) {
    const parsed = await parseMarkdown(input.markdown).catch((error: unknown) => {
      throw error instanceof ContentLimitError ? badRequest(`${field}.markdown: ${error.message}`) : error;
    });
    // A Git import reads such a file without frontmatter (and says so); an edit can be fixed.
    if (parsed.frontmatterError) throw badRequest(`${field}.markdown: the frontmatter (the leading --- block) is not valid YAML: ${parsed.frontmatterError}`);
    // The page-file rules of a Git import: every frontmatter key and the title's form are kept,
    // and relative links are read from the page's folder as the import reads them.
    const { title, document } = splitPageFile(parsed);
    const stored = resolveRelativeRefs(resolveDocumentRefs(document, refs), at.manifest, at.folder);
    return { document: stored, frontmatter: parsed.frontmatter as Record<string, unknown>, ...(title ? { title } : {}) };
  }
  if ('document' in input) {
    return { document: resolveDocumentRefs({ data: {}, ...input.document } as StoredDocument, refs), frontmatter: {} };
  }
  return { document: emptyDocument(), frontmatter: {} };
}

const metadataFields = ['emoji', 'icon', 'description', 'hidden', 'noIndex', 'noRobotsIndex'] as const;

/** Metadata from the change's fields, overridden by the markdown's frontmatter. */
function applyMetadata(page: ManifestPage, change: Partial<Record<(typeof metadataFields)[number], unknown>>, frontmatter: Record<string, unknown>) {
  const source = { ...change, ...frontmatter } as Record<string, unknown>;
  for (const key of metadataFields) {
    const value = source[key];
    if (value === undefined) continue;
    if (value === '' || value === false) delete page[key];
    else (page as unknown as Record<string, unknown>)[key] = value;
  }
  if (frontmatter.layout && typeof frontmatter.layout === 'object') page.layout = frontmatter.layout as ManifestPage['layout'];
  if (frontmatter.cover && typeof frontmatter.cover === 'object') page.cover = frontmatter.cover as ManifestPage['cover'];
}

function requirePage(manifest: Manifest, pageId: string, field: string) {
  const located = findPage(manifest, pageId);
  if (!located) throw badRequest(`${field}: no page ${pageId} in the change request`);
  return located;
}

function assertUniqueSlug(siblings: ManifestPage[], page: ManifestPage, field: string): void {
  if (siblings.some((s) => s !== page && s.slug === page.slug)) {
    throw conflict(`${field}: a sibling page already has the slug "${page.slug}"`);
  }
}

/**
 * Puts a page back as it is in `source`: its own fields and document (its subpages stay as
 * they are); a page added since is removed; a page deleted since comes back under its
 * parent (or at the root when that parent is gone too).
 */
async function revertPage(manifest: Manifest, pageId: string, source: Manifest, field: string): Promise<void> {
  const current = findPage(manifest, pageId);
  const original = findPage(source, pageId);
  if (!current && !original) throw badRequest(`${field}.page: no page ${pageId} here or in the revision reverted to`);
  if (current && !original) {
    const siblings = current.ancestors.at(-1)?.pages ?? manifest.pages;
    siblings.splice(siblings.indexOf(current.page), 1);
    return;
  }
  const { pages: _children, ...fields } = original!.page;
  if (current) {
    const children = current.page.pages;
    for (const key of Object.keys(current.page)) delete (current.page as unknown as Record<string, unknown>)[key];
    Object.assign(current.page, structuredClone(fields), { pages: children });
    return;
  }
  const parentId = original!.ancestors.at(-1)?.id;
  const parent = parentId ? findPage(manifest, parentId)?.page.pages : undefined;
  const siblings = parent ?? manifest.pages;
  const restored = structuredClone(original!.page);
  if (findPage(manifest, restored.id)) throw new ApiError(409, `${field}.page: cannot restore ${pageId}`);
  siblings.push(restored);
  assertUniqueSlug(siblings, restored, `${field}.page`);
}

