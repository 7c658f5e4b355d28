import { pdfExportEntity } from '../../db/entities/pdf-export.ts';
import type { RevisionItem } from '../../db/entities/revision.ts';
import { nowIso } from '../../clock.ts';
import { getBytesBlob, getJsonBlob, hashBytes, putBytesBlob } from '../blobs.ts';
import { evaluateDocument } from '../evaluate.ts';
import { emptyDocument } from '../initial.ts';
import { findPage, walkPages, type LocatedPage } from '../tree.ts';
import type { Manifest, StoredDocument } from '../types.ts';
import { renderPdf } from './index.ts';
import { mapLimit } from '../../map-limit.ts';
import { run } from '../../db/writes.ts';
import { withIntegrationText } from '../../reader/integration-text.ts';
import { inlineIncludes } from '../../reader/inline-includes.ts';
import { exportedOpenAPIBlocks } from '../../reader/openapi-export.ts';
import { openAPISpecsKey, openAPISpecsOf } from '../openapi-specs.ts';

/** Bumped whenever the rendering changes, so PDFs cached by an older renderer are not served. */
export const PDF_RENDERER_VERSION = 9;

/** Images larger than this are represented by their alt text (the PDF stays a sensible size). */
export const MAX_EMBEDDED_IMAGE_BYTES = 5 * 1024 * 1024;

/** The whole content, one page with its subpages (`page`), or one page alone (`page` + `only`). */
export type PdfSelection = { kind: 'all' } | { kind: 'tree' | 'page'; pageId: string };

export interface PdfExportInput {
  spaceId: string;
  /** The space's organization: where its integration blocks' integrations are installed. */
  orgId: string;
  revision: RevisionItem;
  manifest: Manifest;
  selection: PdfSelection;
  /** Document title and running header: not part of the revision, so part of the cache key. */
  title: string;
  header: string;
}

export interface PdfExport {
  blob: string;
  size: number;
  /** True when an earlier request rendered it. */
  cached: boolean;
}

const LOAD_CONCURRENCY = 16;

/**
 * The PDF of a revision's pages, rendered once: a revision is immutable, so a record
 * `SPACE#<space> / PDF#<revision>#<selection>` remembers the blob made for it and later
 * requests only presign it. The bytes are stored content-addressed (`blobs/<sha256>`):
 * equal content (another change request on the same revision) shares one object.
 * The caller has checked that the selected page exists. Integration blocks print the text of
 * their cached renders (shared/reader/integration-text.ts; read from the table this function
 * already reads: no integration runs here); a PDF with such blocks is made again when what
 * they print has changed since (a block rendered after the PDF was first made).
 */
export async function revisionPdf(input: PdfExportInput): Promise<PdfExport> {
  const { spaceId, revision, manifest, selection } = input;
  const labels = hashBytes(JSON.stringify([input.title, input.header])).slice(0, 16);
  const selected = selection.kind === 'all' ? 'all' : `${selection.kind}:${selection.pageId}`;
  const ids = { spaceId, revisionId: revision.id, selection: `${selected}#v${PDF_RENDERER_VERSION}-${labels}` };
  const item = await pdfExportEntity.get(ids);
  // Without integration blocks or stored OpenAPI specs the revision fixes the PDF; with some, so do their cached renders and versions.
  if (item && !item.integrations) {
    return { blob: item.blob, size: item.size, cached: true };
  }

  const located = selectPages(manifest, selection);
  const prepared = await mapLimit(located, LOAD_CONCURRENCY, async ({ page }) => {
    // Reusable contents where the page includes them, as the reader shows them.
    const stored = page.document ? await inlineIncludes(await getJsonBlob<StoredDocument>(page.document), manifest) : emptyDocument();
    const { document, key } = await withIntegrationText(stored, { orgId: input.orgId, spaceId });
    const evaluated = evaluateDocument(document, { space: manifest.variables, page: page.variables ?? {} });
    // OpenAPI blocks as a readable operation section, from the organization's stored specs and the
    // revision's spec files (as the reader's page PDF); the specs' versions join the cache key.
    const specs = await openAPISpecsOf(evaluated, input.orgId);
    const withSpecs = await exportedOpenAPIBlocks(evaluated, specs, manifest.files, 'readable');
    return { document: withSpecs, key: [key, openAPISpecsKey(specs)].filter(Boolean).join('|') };
  });
  const keys = prepared.map((p) => p.key);
  const integrations = keys.some(Boolean) ? hashBytes(JSON.stringify(keys)) : undefined;
  if (item && item.integrations === integrations) {
    return { blob: item.blob, size: item.size, cached: true };
  }
  const documents = prepared.map((p) => p.document);
  const titles = new Map([...walkPages(manifest.pages)].map(({ page }) => [page.id, page.title]));
  const files = new Map(manifest.files.map((f) => [f.id, f.name]));
  const fileBlobs = new Map(manifest.files.map((f) => [f.id, f]));
  const bytes = await renderPdf({
    title: input.title,
    header: input.header,
    date: new Date(revision.createdAt),
    pages: located.map(({ page, ancestors }, i) => ({ page, ancestors, document: documents[i]! })),
    context: { pageTitle: (id) => titles.get(id), fileName: (id) => files.get(id) },
    fileBytes: async (id) => {
      const file = fileBlobs.get(id);
      return file && file.size <= MAX_EMBEDDED_IMAGE_BYTES ? getBytesBlob(file.blob) : undefined;
    },
  });
  const blob = await putBytesBlob(bytes, 'application/pdf');
  await run(pdfExportEntity.put(ids, { ...ids, blob, size: bytes.length, createdAt: nowIso(), ...(integrations ? { integrations } : {}) }));
  return { blob, size: bytes.length, cached: false };
}

/** The pages a selection covers, in reading order (depth first). */
export function selectPages(manifest: Manifest, selection: PdfSelection): LocatedPage[] {
  if (selection.kind === 'all') return [...walkPages(manifest.pages)];
  const root = findPage(manifest, selection.pageId);
  if (!root) return [];
  if (selection.kind === 'page') return [root];
  return [root, ...walkPages(root.page.pages, [...root.ancestors, root.page])];
}
