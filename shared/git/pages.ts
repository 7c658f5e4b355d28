/**
 * One page file <-> one page: frontmatter and the leading `# Title` carry the page's
 * metadata and title; relative links become page, file and reusable-content ids on the
 * way in and relative paths on the way out.
 */
import { ContentLimitError, documentToMarkdown, type JSONDocument, type Frontmatter } from '../content/markdown/index.ts';
import { parseMarkdown } from '../content/markdown/parse-pool.ts';
import type { ManifestPage, StoredDocument } from '../content/types.ts';
import { basename, dirname, joinPath, relativePath } from './format.ts';

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
}

function decode(target: string): string {
  try {
    return decodeURI(target);
  } catch {
    return target;
  }
}

/** Candidate file paths of a link target written in the file at `fromDir`. */
export function pageCandidates(fromDir: string, target: string): string[] {
  const path = joinPath(fromDir, decode(target));
  if (target.endsWith('/') || path === '') return [joinPath(path, 'README.md')];
  if (/\.md$/i.test(path)) return [path];
  return [`${path}.md`, joinPath(path, 'README.md')];
}

function plainText(node: unknown): string {
  if (!node || typeof node !== 'object') return '';
  const n = node as { leaves?: { text: string }[]; nodes?: unknown[] };
  if (n.leaves) return n.leaves.map((l) => l.text).join('');
  return (n.nodes ?? []).map(plainText).join('');
}

/** Rewrites every ref of a document with `map` (which returns undefined to keep a ref as it is). */
function mapRefs(document: StoredDocument, map: (ref: Record<string, unknown>, node: Record<string, unknown>) => Record<string, unknown> | undefined, mapNode?: (node: Record<string, unknown>) => void): StoredDocument {
  const visit = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(visit);
    if (!node || typeof node !== 'object') return node;
    const out: Record<string, unknown> = { ...(node as Record<string, unknown>) };
    const data = out.data as Record<string, unknown> | undefined;
    if (data && typeof data === 'object') {
      const next = { ...data };
      for (const key of ['ref', 'src']) {
        const ref = next[key];
        if (ref && typeof ref === 'object') {
          const mapped = map(ref as Record<string, unknown>, out);
          if (mapped) next[key] = mapped;
        }
      }
      out.data = next;
    }
    mapNode?.(out);
    if (Array.isArray(out.nodes)) out.nodes = out.nodes.map(visit);
    return out;
  };
  return visit(document) as StoredDocument;
}

/** Markdown of the file at `path` (content path) -> page content with refs resolved. */
export async function parsePageFile(markdown: string, path: string, resolver: PathResolver, summaryTitle?: string): Promise<ParsedPage> {
  // Off the main thread; a page over a limit fails the import, naming the file.
  const { document, frontmatter } = await parseMarkdown(markdown).catch((error: unknown) => {
    throw error instanceof ContentLimitError ? new ContentLimitError(`${path}: ${error.message}`) : error;
  });
  const [first, ...rest] = document.nodes as { type?: string }[];
  const heading = first?.type === 'heading-1' ? plainText(first).trim() : undefined;
  const fileTitle = basename(path) === 'README.md' && dirname(path) ? basename(dirname(path)) : basename(path).replace(/\.md$/i, '');
  const title = summaryTitle || (typeof frontmatter.title === 'string' ? frontmatter.title : undefined) || heading || fileTitle;
  const nodes = heading !== undefined && (heading === title || !summaryTitle) ? rest : document.nodes;
  const stored = resolveRefs({ ...document, data: { schemaVersion: 1, ...document.data }, nodes } as StoredDocument, dirname(path), resolver);
  const metadata: PageMetadata = {};
  for (const key of METADATA_FIELDS) {
    const value = frontmatter[key];
    if (value === undefined || value === null || value === '' || value === false) continue;
    if ((key === 'layout' || key === 'cover') && typeof value !== 'object') continue;
    (metadata as Record<string, unknown>)[key] = value;
  }
  return { title, document: stored, metadata, frontmatter };
}

/** Relative targets -> ids (import). Unresolved targets stay as written. */
export function resolveRefs(document: StoredDocument, fromDir: string, resolver: PathResolver): StoredDocument {
  return mapRefs(document, (ref) => {
    if (ref.kind === 'page' && typeof ref.page === 'string') {
      const id = pageCandidates(fromDir, ref.page).map((p) => resolver.page(p)).find(Boolean);
      if (id) return { kind: 'page', page: id };
      const file = resolver.file(joinPath(fromDir, decode(ref.page)));
      return file ? { kind: 'file', file } : undefined;
    }
    if (ref.kind === 'anchor' && typeof ref.page === 'string' && ref.page !== '') {
      const id = pageCandidates(fromDir, ref.page).map((p) => resolver.page(p)).find(Boolean);
      return id ? { kind: 'anchor', anchor: ref.anchor, page: id } : undefined;
    }
    if (ref.kind === 'file' && typeof ref.file === 'string') {
      const target = joinPath(fromDir, decode(ref.file));
      const file = resolver.file(target);
      if (file) return { kind: 'file', file };
      const page = resolver.page(target);
      return page ? { kind: 'page', page } : undefined;
    }
    return undefined;
  }, (node) => {
    const data = node.data as Record<string, unknown> | undefined;
    if (node.type === 'reusable-content' && data && typeof data.path === 'string') {
      const id = resolver.include(joinPath(fromDir, decode(data.path)));
      if (id) node.data = { ref: { kind: 'reusable-content', reusableContent: id } };
    }
  });
}

export interface IdPaths {
  pages: Map<string, string>;
  files: Map<string, string>;
  includes: Map<string, string>;
}

/** ids -> relative targets from the file at `path` (export). */
export function refsToPaths(document: StoredDocument, path: string, paths: IdPaths): StoredDocument {
  const fromDir = dirname(path);
  const rel = (target: string) => relativePath(fromDir, target);
  return mapRefs(document, (ref) => {
    if (ref.kind === 'page' && typeof ref.page === 'string' && paths.pages.has(ref.page)) return { kind: 'page', page: rel(paths.pages.get(ref.page)!) };
    if (ref.kind === 'anchor' && typeof ref.page === 'string' && paths.pages.has(ref.page)) {
      return { kind: 'anchor', anchor: ref.anchor, page: rel(paths.pages.get(ref.page)!) };
    }
    if (ref.kind === 'file' && typeof ref.file === 'string' && paths.files.has(ref.file)) return { kind: 'file', file: rel(paths.files.get(ref.file)!) };
    return undefined;
  }, (node) => {
    const data = node.data as { ref?: { reusableContent?: string } } | undefined;
    const id = data?.ref?.reusableContent;
    if (node.type === 'reusable-content' && id && paths.includes.has(id)) node.data = { path: rel(paths.includes.get(id)!) };
  });
}

/** A page as its file: frontmatter from its metadata, `# title` unless the document starts with a heading. */
export function printPageFile(page: Pick<ManifestPage, 'title'> & PageMetadata, document: StoredDocument, path: string, paths: IdPaths): string {
  const frontmatter: Frontmatter = {};
  for (const key of METADATA_FIELDS) if (page[key] !== undefined) (frontmatter as Record<string, unknown>)[key] = page[key];
  const withPaths = refsToPaths(document, path, paths) as unknown as JSONDocument;
  const first = withPaths.nodes[0] as { type?: string } | undefined;
  const body = documentToMarkdown(withPaths, frontmatter);
  if (first?.type === 'heading-1') return body;
  const title = `# ${page.title}\n`;
  // The title goes after the frontmatter block.
  const fm = /^---\n[\s\S]*?\n---\n/.exec(body);
  if (fm) return `${fm[0]}\n${title}${body.length > fm[0].length ? `\n${body.slice(fm[0].length).replace(/^\n+/, '')}` : ''}`;
  return body.trim() ? `${title}\n${body}` : title;
}
