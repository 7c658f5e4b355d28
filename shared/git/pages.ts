/**
 * One page file <-> one page: frontmatter and the leading `# Title` carry the page's
 * metadata and title; relative links become page, file and reusable-content ids on the
 * way in and relative paths on the way out.
 *
 * What the page fields cannot hold travels in the document's `data`, so that printing
 * the page gives its file back: `frontmatter` (every other key, as written, e.g. `title`,
 * `tags`, a string `cover`), `title` (the `# Title` heading's inline content when it has
 * formatting, such as code) and `titleHeading: false` (the file had no `# Title`).
 */
import { ContentLimitError, documentToMarkdown, type JSONDocument, type Frontmatter } from '../content/markdown/index.ts';
import { decodeTargetPath } from '../content/markdown/refs.ts';
import type { MarkdownParser } from '../content/markdown/mdast.ts';
import { parseMarkdown, type ParsedMarkdown } from '../content/markdown/parse-pool.ts';
import type { ManifestPage, StoredDocument } from '../content/types.ts';
import { basename, dirname, joinPath, relativePath } from './format.ts';
import { isGeneratedId } from '../ids.ts';

/** Page fields a file's frontmatter carries. */
export const METADATA_FIELDS = ['description', 'icon', 'emoji', 'hidden', 'noIndex', 'noRobotsIndex', 'layout', 'cover'] as const;
export type PageMetadata = Partial<Pick<ManifestPage, (typeof METADATA_FIELDS)[number]>>;

export interface PathResolver {
  /** Page id of a content path (`guide/setup.md`). */
  page(path: string): string | undefined;
  /** File id of a content path (`.gitbook/assets/a b.png`). */
  file(path: string): string | undefined;
  /** Reusable content id of a content path (`.gitbook/includes/x.md`). */
  include(path: string): string | undefined;
}

export interface ParsedPage {
  title: string;
  document: StoredDocument;
  metadata: PageMetadata;
  frontmatter: Frontmatter;
  /** The file opened with a `---` block that is not valid YAML: read as markdown (YAML's message). */
  frontmatterError?: string;
  /** Which parser read the file. */
  parser: MarkdownParser;
}

/** Candidate file paths of a link target written in the file at `fromDir`. */
export function pageCandidates(fromDir: string, target: string): string[] {
  const path = joinPath(fromDir, decodeTargetPath(target));
  if (target.endsWith('/') || path === '') return [joinPath(path, 'README.md')];
  if (/\.md$/i.test(path)) return [path];
  return [`${path}.md`, joinPath(path, 'README.md')];
}

/** Whether a title's inline content is just text (nothing a page title would lose). */
function isPlainTitle(nodes: unknown[]): boolean {
  return nodes.every((n) => {
    const node = n as { object?: string; leaves?: { marks?: unknown[] }[] };
    return node.object === 'text' && (node.leaves ?? []).every((l) => (l.marks ?? []).length === 0);
  });
}

function plainText(node: unknown): string {
  if (!node || typeof node !== 'object') return '';
  const n = node as { leaves?: { text: string }[]; nodes?: unknown[] };
  if (n.leaves) return n.leaves.map((l) => l.text).join('');
  return (n.nodes ?? []).map(plainText).join('');
}

/** Where a node's `data` holds a ref, and where it holds lists of `{ ref }` (raw HTML's `<img src>` and `<a href>`: content/markdown/html-images.ts). */
const REF_KEYS = ['ref', 'src', 'refDark'] as const;
const LISTED_REF_KEYS = ['images', 'links'] as const;

type Data = Record<string, unknown>;

/**
 * Rewrites every ref of a document with `map` (undefined keeps a ref as it is), and a node's
 * whole `data` with `mapData` (undefined: as it is). Captions, expandables' titles and bodies
 * (`fragments`) hold links too. Only the path to a changed ref is copied: a node holding none
 * is the same object as before. Most nodes hold no link, so copying every node would be most
 * of an import's garbage.
 */
function mapRefs(document: StoredDocument, map: (ref: Data) => Data | undefined, mapData?: (type: unknown, data: Data) => Data | undefined): StoredDocument {
  const list = (items: unknown[]): unknown[] => {
    let out: unknown[] | undefined;
    for (let i = 0; i < items.length; i++) {
      const next = visit(items[i]);
      if (next !== items[i]) (out ??= items.slice())[i] = next;
    }
    return out ?? items;
  };
  const mappedData = (before: Data): Data => {
    let data = before;
    const set = (key: string, value: unknown) => {
      if (data === before) data = { ...before };
      data[key] = value;
    };
    for (const key of REF_KEYS) {
      const ref = before[key];
      const mapped = ref && typeof ref === 'object' ? map(ref as Data) : undefined;
      if (mapped) set(key, mapped);
    }
    for (const key of LISTED_REF_KEYS) {
      const listed = before[key];
      if (!Array.isArray(listed)) continue;
      let entries: unknown[] | undefined;
      listed.forEach((entry: unknown, i) => {
        const ref = entry && typeof entry === 'object' ? (entry as { ref?: unknown }).ref : undefined;
        const mapped = ref && typeof ref === 'object' ? map(ref as Data) : undefined;
        if (mapped) (entries ??= listed.slice())[i] = { ...(entry as object), ref: mapped };
      });
      if (entries) set(key, entries);
    }
    return data;
  };
  const visit = (node: unknown): unknown => {
    if (Array.isArray(node)) return list(node);
    if (!node || typeof node !== 'object') return node;
    const source = node as Data;
    const before = source.data;
    let data = before;
    if (before && typeof before === 'object') {
      data = mappedData(before as Data);
      data = mapData?.(source.type, data as Data) ?? data;
    }
    const nodes = Array.isArray(source.nodes) ? list(source.nodes) : source.nodes;
    const fragments = Array.isArray(source.fragments) ? list(source.fragments) : source.fragments;
    if (data === before && nodes === source.nodes && fragments === source.fragments) return node;
    // Keys keep their places (the stored JSON is the same as a full copy's).
    const out = { ...source };
    if (data !== before) out.data = data;
    if (nodes !== source.nodes) out.nodes = nodes;
    if (fragments !== source.fragments) out.fragments = fragments;
    return out;
  };
  return visit(document) as StoredDocument;
}

/**
 * Markdown of the file at `path` (content path) -> page content with refs resolved. `parse`
 * may answer from a cache (Git import: shared/git/import.ts); its result is only read here.
 */
export async function parsePageFile(markdown: string, path: string, resolver: PathResolver, summaryTitle?: string, parse: (markdown: string) => Promise<ParsedMarkdown> = parseMarkdown): Promise<ParsedPage> {
  // Off the main thread; a page over a limit fails the import, naming the file.
  const parsed = await parse(markdown).catch((error: unknown) => {
    throw error instanceof ContentLimitError ? new ContentLimitError(`${path}: ${error.message}`) : error;
  });
  const fileTitle = basename(path) === 'README.md' && dirname(path) ? basename(dirname(path)) : basename(path).replace(/\.md$/i, '');
  const page = splitPageFile(parsed, summaryTitle);
  const stored = resolveRefs(page.document, dirname(path), resolver);
  return { title: page.title ?? fileTitle, document: stored, metadata: page.metadata, frontmatter: parsed.frontmatter, ...(parsed.frontmatterError ? { frontmatterError: parsed.frontmatterError } : {}), parser: parsed.parser };
}

/**
 * The page-file rules on a parsed file, shared by Git import and markdown edits through the
 * API: the title (`titleHint`, else frontmatter `title`, else the leading `# Title`), the
 * metadata fields, and in the document's `data` what the page fields cannot hold (the other
 * frontmatter keys, a formatted title, a missing `# Title`). Refs stay as written.
 */
export function splitPageFile(parsed: { document: JSONDocument; frontmatter: Frontmatter }, titleHint?: string): { title?: string; document: StoredDocument; metadata: PageMetadata } {
  const { document, frontmatter } = parsed;
  const [first, ...rest] = document.nodes as { type?: string; nodes?: unknown[] }[];
  const heading = first?.type === 'heading-1' ? plainText(first).trim() : undefined;
  const title = titleHint || (typeof frontmatter.title === 'string' ? frontmatter.title : undefined) || heading || undefined;
  // The heading is the title only when it says the same (else it stays content, as written).
  const stripped = heading !== undefined && heading === title;
  const nodes = stripped ? rest : document.nodes;
  const data: Record<string, unknown> = { schemaVersion: 1, ...document.data };
  if (heading === undefined) data.titleHeading = false;
  else if (stripped && !isPlainTitle(first!.nodes ?? [])) data.title = first!.nodes;
  const metadata: PageMetadata = {};
  const extra: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(frontmatter)) {
    const field = (METADATA_FIELDS as readonly string[]).includes(key);
    if (field && (value === undefined || value === null || value === '' || value === false)) continue;
    // A string cover (a file path) is not the page's cover object: kept as written.
    if (!field || ((key === 'layout' || key === 'cover') && typeof value !== 'object')) extra[key] = value;
    else (metadata as Record<string, unknown>)[key] = value;
  }
  if (Object.keys(extra).length > 0) data.frontmatter = extra;
  return { ...(title ? { title } : {}), document: { ...document, data, nodes } as unknown as StoredDocument, metadata };
}

/** Relative targets -> ids (import). Unresolved targets stay as written. */
export function resolveRefs(document: StoredDocument, fromDir: string, resolver: PathResolver): StoredDocument {
  return mapRefs(document, (ref) => {
    if (ref.kind === 'page' && typeof ref.page === 'string') {
      const id = pageCandidates(fromDir, ref.page).map((p) => resolver.page(p)).find(Boolean);
      if (id) return { kind: 'page', page: id };
      const file = resolver.file(joinPath(fromDir, decodeTargetPath(ref.page)));
      return file ? { kind: 'file', file } : undefined;
    }
    if (ref.kind === 'anchor' && typeof ref.page === 'string' && ref.page !== '') {
      const id = pageCandidates(fromDir, ref.page).map((p) => resolver.page(p)).find(Boolean);
      return id ? { kind: 'anchor', anchor: ref.anchor, page: id } : undefined;
    }
    if (ref.kind === 'file' && typeof ref.file === 'string') {
      const target = joinPath(fromDir, decodeTargetPath(ref.file));
      const file = resolver.file(target);
      if (file) return { kind: 'file', file };
      const page = resolver.page(target);
      return page ? { kind: 'page', page } : undefined;
    }
    return undefined;
  }, (type, data) => {
    if (type !== 'reusable-content' || typeof data.path !== 'string') return undefined;
    const id = resolver.include(joinPath(fromDir, decodeTargetPath(data.path)));
    return id ? { ref: { kind: 'reusable-content', reusableContent: id } } : undefined;
  });
}

export interface IdPaths {
  pages: Map<string, string>;
  files: Map<string, string>;
  includes: Map<string, string>;
}

/**
 * What GitBook writes for a link to a page that no longer exists. A link resolved to a page's
 * id on import or edit keeps that id when the page is deleted; printed, the id would read as a
 * path nobody wrote (`[the API](ZmwpF3...)`).
 */
const BROKEN_REFERENCE = 'broken-reference';

/** ids -> relative targets from the file at `path` (export); `paths` may hold absolute URLs instead. */
export function refsToPaths(document: StoredDocument, path: string, paths: IdPaths): StoredDocument {
  const fromDir = dirname(path);
  // A target that is already a URL (the reader's exports) is printed as it is.
  const rel = (target: string) => (/^[a-z][a-z0-9+.-]*:|^\//i.test(target) ? target : relativePath(fromDir, target));
  return mapRefs(document, (ref) => {
    if (ref.kind === 'page' && typeof ref.page === 'string' && paths.pages.has(ref.page)) return { kind: 'page', page: rel(paths.pages.get(ref.page)!) };
    if (ref.kind === 'anchor' && typeof ref.page === 'string' && paths.pages.has(ref.page)) {
      return { kind: 'anchor', anchor: ref.anchor, page: rel(paths.pages.get(ref.page)!) };
    }
    // A deleted page's id (a path as written, resolved to nothing on import, stays as written).
    if ((ref.kind === 'page' || ref.kind === 'anchor') && typeof ref.page === 'string' && isGeneratedId(ref.page)) return { kind: 'page', page: BROKEN_REFERENCE };
    if (ref.kind === 'file' && typeof ref.file === 'string' && paths.files.has(ref.file)) return { kind: 'file', file: rel(paths.files.get(ref.file)!) };
    return undefined;
  }, (type, data) => {
    const id = (data.ref as { reusableContent?: string } | undefined)?.reusableContent;
    return type === 'reusable-content' && id && paths.includes.has(id) ? { path: rel(paths.includes.get(id)!) } : undefined;
  });
}

/**
 * A page as its file: frontmatter from its metadata then the document's other keys, and
 * `# title` unless the document starts with a heading or its file had none. The title
 * heading keeps its formatting (document `data.title`) while the page keeps that title.
 */
export function printPageFile(page: Pick<ManifestPage, 'title'> & PageMetadata, document: StoredDocument, path: string, paths: IdPaths): string {
  const data = (document.data ?? {}) as { frontmatter?: Record<string, unknown>; title?: unknown[]; titleHeading?: boolean };
  const frontmatter: Frontmatter = {};
  for (const key of METADATA_FIELDS) if (page[key] !== undefined) (frontmatter as Record<string, unknown>)[key] = page[key];
  for (const [key, value] of Object.entries(data.frontmatter ?? {})) if (!(key in frontmatter)) frontmatter[key] = value;
  const withPaths = refsToPaths(document, path, paths) as unknown as JSONDocument;
  const first = withPaths.nodes[0] as { type?: string } | undefined;
  if (first?.type === 'heading-1' || data.titleHeading === false) return documentToMarkdown(withPaths, frontmatter);
  const rich = Array.isArray(data.title) && plainText({ nodes: data.title }).trim() === page.title ? data.title : undefined;
  const title = { object: 'block', type: 'heading-1', key: '', data: {}, nodes: rich ?? [{ object: 'text', leaves: [{ object: 'leaf', text: page.title, marks: [] }] }] };
  return documentToMarkdown({ ...withPaths, nodes: [title, ...withPaths.nodes] } as JSONDocument, frontmatter);
}
