/**
 * A repository tree -> a manifest (the content of a new revision). Page ids, file ids and
 * reusable content ids are kept from the previous content for the same paths, so a
 * re-import keeps links, comments and change requests pointing at the same pages.
 */
import { contentHashOf, putBytesBlob } from '../content/blobs.ts';
import { JsonBlobPacker, referencesByContent } from '../content/blob-packs.ts';
import { randomId } from '../ids.ts';
import { slugify } from '../content/tree.ts';
import { walkPages } from '../content/tree.ts';
import { contentTypeOf, dimensionsOf } from '../content/file-input.ts';
import type { Manifest, ManifestFile, ManifestPage, ManifestReusableContent } from '../content/types.ts';
import { ASSETS_DIR, basename, dirname, INCLUDES_DIR, joinPath, parseGitbookYaml, parseSummary, type GitbookConfig, type SummaryEntry } from './format.ts';
import { parsePageFile, type PathResolver } from './pages.ts';
import { parseMarkdownBlob, parsedBlob } from './parse-cache.ts';
import { FinalError, isRegularFile, type FlatEntry } from './repo.ts';
import { silentProgress, type ProgressSink } from './progress.ts';

export interface RepoSource {
  /** Every blob of the commit by repository path. */
  files: Map<string, FlatEntry>;
  read(oid: string): Promise<Uint8Array>;
}

/**
 * Pages, includes and files in work at once (read, parsed, stored): bounded memory (one
 * object per slot) and bounded S3 concurrency, with no wait for the slowest of a batch.
 */
export const IMPORT_CONCURRENCY = 16;

/** Content files (paths relative to the project directory + root) and the configuration. */
export function contentView(files: Map<string, FlatEntry>, projectDirectory: string | undefined, readConfig: (entry: FlatEntry) => string | undefined) {
  const project = joinPath(projectDirectory ?? '');
  if (project && ![...files.keys()].some((p) => p.startsWith(`${project}/`))) {
    throw new FinalError(`The project directory ${project} does not exist in the repository`);
  }
  const configEntry = files.get(joinPath(project, '.gitbook.yaml'));
  const config: GitbookConfig = parseGitbookYaml(isRegularFile(configEntry) ? readConfig(configEntry) : undefined);
  const base = joinPath(project, config.root);
  const content = new Map<string, FlatEntry>();
  for (const [path, entry] of files) {
    if (!isRegularFile(entry)) continue;
    if (!base) content.set(path, entry);
    else if (path.startsWith(`${base}/`)) content.set(path.slice(base.length + 1), entry);
  }
  return { config, base, content };
}

interface PlannedPage {
  page: ManifestPage;
  path?: string;
  summaryTitle?: string;
}

/** A `.gitbook.yaml` redirect: an old URL path of the space to the page of a file. */
export interface GitRedirect {
  /** The path readers used to reach (no leading or trailing slash). */
  from: string;
  /** The target file, relative to the content root. */
  to: string;
  /** The page that file became, when it is a page of this import. */
  page?: string;
}

export interface ImportResult {
  manifest: Manifest;
  /** `markdownFastPath`: the pages and reusable contents markdown-it read (the others, micromark: shared/content/markdown/fast-mdast.ts). */
  stats: { pages: number; files: number; reusableContents: number; markdownFastPath: number };
  redirects: GitRedirect[];
  /** What the import read differently from what the files say (in path order): for the operation's message. */
  warnings: string[];
}

const decoder = new TextDecoder();
const text = (bytes: Uint8Array) => decoder.decode(bytes);

export async function importRepository(source: RepoSource, options: { projectDirectory?: string; previous?: Manifest; now: string; configText?: string; progress?: ProgressSink }): Promise<ImportResult> {
  const progress = options.progress ?? silentProgress;
  const warnings: string[] = [];
  const configEntry = source.files.get(joinPath(options.projectDirectory ?? '', '.gitbook.yaml'));
  const configBytes = isRegularFile(configEntry) ? await source.read(configEntry.oid) : undefined;
  progress.bytes(configBytes?.length ?? 0);
  const configText = configBytes ? text(configBytes) : undefined;
  const { config, base, content } = contentView(source.files, options.projectDirectory, () => configText);
  // A root that names no folder would import nothing, emptying the space: a mistake to report.
  if (config.root && content.size === 0) throw new FinalError(`.gitbook.yaml: the root ${base} is not a folder of the repository`);
  const previous = options.previous;
  const idsByKey = new Map<string, string>();
  const previousPages = new Map<string, ManifestPage>();
  const previousFiles = new Map<string, ManifestFile>();
  if (previous) {
    for (const { page } of walkPages(previous.pages)) {
      if (page.git?.path) idsByKey.set(`page:${page.git.path}`, page.id);
      else if (page.type === 'group') idsByKey.set(`group:${page.title}`, page.id);
      else if (page.type === 'link') idsByKey.set(`link:${page.href}`, page.id);
      previousPages.set(page.id, page);
    }
    for (const f of previous.files) {
      if (!f.git?.path) continue;
      idsByKey.set(`file:${f.git.path}`, f.id);
      previousFiles.set(f.git.path, f);
    }
    for (const r of previous.reusableContents) if (r.git?.path) idsByKey.set(`include:${r.git.path}`, r.id);
    keepIdsOfMovedPages(previous, content, idsByKey);
  }
  const idFor = (key: string) => {
    const existing = idsByKey.get(key);
    if (existing) return existing;
    const id = randomId();
    idsByKey.set(key, id);
    return id;
  };
  const newPage = (id: string, fields: Partial<ManifestPage> & Pick<ManifestPage, 'type' | 'title'>): ManifestPage => ({
    id, slug: slugify(fields.title), createdAt: previousPages.get(id)?.createdAt ?? options.now, updatedAt: options.now, pages: [], ...fields,
  });

  // 1. The tree, from SUMMARY.md or from the folders.
  const planned: PlannedPage[] = [];
  const pageIds = new Map<string, string>();
  const plan = (path: string, title?: string): PlannedPage | undefined => {
    if (!content.has(path) || pageIds.has(path)) return undefined;
    const id = idFor(`page:${path}`);
    pageIds.set(path, id);
    const item: PlannedPage = { page: newPage(id, { type: 'document', title: title ?? '', git: { oid: content.get(path)!.oid, path } }), path, summaryTitle: title };
    planned.push(item);
    return item;
  };
  const roots: ManifestPage[] = [];
  const summaryEntry = content.get(config.summary);
  if (summaryEntry) {
    const summaryDir = dirname(config.summary);
    const build = (entries: SummaryEntry[]): ManifestPage[] => {
      const out: ManifestPage[] = [];
      for (const entry of entries) {
        const children = build(entry.children);
        if (entry.href) {
          out.push(newPage(idFor(`link:${entry.href}`), { type: 'link', title: entry.title, href: entry.href, pages: children }));
          continue;
        }
        let path = joinPath(summaryDir, entry.path ?? '');
        if (entry.path?.endsWith('/') || !/\.[a-z0-9]+$/i.test(path)) path = content.has(`${path}.md`) ? `${path}.md` : joinPath(path, 'README.md');
        const item = plan(path, entry.title);
        if (!item && !content.has(path)) warnings.push(`${config.summary}: "${entry.title}" links to ${entry.path ?? path}, which is not in the repository (left out)`);
        if (!item && pageIds.has(path)) {
          // A file listed again: the entry stays, as a link to that path (export prints it back).
          out.push(newPage(idFor(`link:${entry.path}`), { type: 'link', title: entry.title, href: entry.path!, pages: children }));
          continue;
        }
        if (!item) {
          out.push(...children);
          continue;
        }
        item.page.pages = children;
        out.push(item.page);
      }
      return out;
    };
    const summaryBytes = await source.read(summaryEntry.oid);
    progress.bytes(summaryBytes.length);
    const groups = parsedBlob('summary', summaryEntry.oid, text(summaryBytes), parseSummary);
    for (const group of groups) {
      const pages = build(group.entries);
      if (group.title === undefined) roots.push(...pages);
      else roots.push(newPage(idFor(`group:${group.title}`), { type: 'group', title: group.title, pages, ...(group.anchor ? { slug: group.anchor } : {}) }));
    }
    // The readme is the first page, listed or not.
    if (content.has(config.readme) && !pageIds.has(config.readme)) {
      const readme = plan(config.readme);
      if (readme) roots.unshift(readme.page);
    }
  } else {
    roots.push(...folderTree('', folderIndex(content, config), content, config, plan));
  }

  // 2. Reusable contents, files, and the resolver that links them.
  const includes: ManifestReusableContent[] = [];
  const includeIds = new Map<string, string>();
  for (const path of content.keys()) {
    if (path.startsWith(`${INCLUDES_DIR}/`) && path.endsWith('.md')) includeIds.set(path, idFor(`include:${path}`));
  }
  const fileIds = new Map<string, string>();
  // A file over the cap is left out (read whole, it would not fit the worker's memory), said in a warning.
  const skippedFiles = new Set<string>();
  const tooLarge = (path: string) => {
    const size = content.get(path)?.size ?? 0;
    if (size <= MAX_IMPORT_FILE_BYTES) return false;
    if (!skippedFiles.has(path)) warnings.push(`${path}: ${size} bytes, larger than the ${MAX_IMPORT_FILE_BYTES / 1024 / 1024} MB a file may be (left out)`);
    skippedFiles.add(path);
    return true;
  };
  for (const path of content.keys()) if (path.startsWith(`${ASSETS_DIR}/`) && !tooLarge(path)) fileIds.set(path, idFor(`file:${path}`));
  const resolver: PathResolver = {
    page: (path) => pageIds.get(path),
    include: (path) => includeIds.get(path),
    file: (path) => {
      const known = fileIds.get(path);
      if (known) return known;
      // Any other file of the repository that a page links to becomes a file too.
      if (!content.has(path) || path.endsWith('.md') || tooLarge(path)) return undefined;
      const id = idFor(`file:${path}`);
      fileIds.set(path, id);
      return id;
    },
  };

  // 3. Page documents, reusable contents and files, read, parsed and stored by one bounded
  // pool (a slot takes the next item as soon as it is free). Pages may link to files outside
  // the assets folder: those are known, and the files' total final, once every page is parsed.
  // Documents go into packs (many per PUT); a document equal to one of the previous import
  // keeps its reference. A slot does not wait for its document's pack to fill: references
  // are filled in once every pack is written.
  const files: ManifestFile[] = [];
  const packer = new JsonBlobPacker();
  const previousDocuments = referencesByContent(previous ? [...walkPages(previous.pages)].map(({ page }) => page.document).concat(previous.reusableContents.map((r) => r.document)) : []);
  const stored: Promise<void>[] = [];
  const storeDocument = (document: unknown, into: (ref: string) => void) => {
    const done = packer.add(document, previousDocuments).then(into);
    // Awaited after the pool (a failed pool leaves it unawaited: handled here).
    done.catch(() => {});
    stored.push(done);
  };
  // Page files are asked for ahead of their slot, many at a time (one request to git).
  const readPage = readAhead(planned.map((item) => content.get(item.path!)!.oid), source.read, READ_AHEAD);
  const pageIndex = new Map(planned.map((item, index) => [item, index]));
  let markdownFastPath = 0;
  /** A page or reusable content file parsed (through the worker's parse cache), its warning and parser counted. */
  const parseFile = async (path: string, bytes: Uint8Array, summaryTitle?: string) => {
    const parsed = await parsePageFile(text(bytes), path, resolver, summaryTitle, (markdown) => parseMarkdownBlob(content.get(path)!.oid, markdown));
    if (parsed.frontmatterError) warnings.push(frontmatterWarning(path, parsed.frontmatterError));
    if (parsed.parser === 'markdown-it') markdownFastPath++;
    return parsed;
  };
  const pageWork = async (item: PlannedPage) => {
    const bytes = await readPage(pageIndex.get(item)!);
    const parsed = await parseFile(item.path!, bytes, item.summaryTitle);
    Object.assign(item.page, parsed.metadata, { title: parsed.title });
    storeDocument(parsed.document, (ref) => (item.page.document = ref));
    if (!item.summaryTitle) item.page.slug = slugify(parsed.title);
    progress.page(bytes.length);
  };
  const includeWork = async ([path, id]: [string, string]) => {
    const entry = content.get(path)!;
    const bytes = await source.read(entry.oid);
    const parsed = await parseFile(path, bytes);
    const include: ManifestReusableContent = { id, title: parsed.title, document: '', git: { oid: entry.oid, path } };
    includes.push(include);
    storeDocument(parsed.document, (ref) => (include.document = ref));
    progress.page(bytes.length);
  };
  const fileWork = async ([path, id]: [string, string]) => {
    const entry = content.get(path)!;
    const name = basename(path);
    const contentType = contentTypeOf(name);
    // The same bytes as at the previous import (same git blob): the stored blob is reused,
    // unread. It is safe from the blob sweep: the previous revision names it.
    const same = previousFiles.get(path);
    if (same && same.git?.oid === entry.oid) {
      files.push({ id, name, contentType, size: same.size, blob: same.blob, ...(same.dimensions ? { dimensions: same.dimensions } : {}), git: { oid: entry.oid, path } });
      progress.file(same.size);
      return;
    }
    const bytes = await source.read(entry.oid);
    const blob = await putBytesBlob(bytes, contentType);
    files.push({ id, name, contentType, size: bytes.length, blob, ...dimensionsOf(bytes, contentType), git: { oid: entry.oid, path } });
    progress.file(bytes.length);
  };
  const assets = [...fileIds];
  progress.totals(planned.length + includeIds.size, fileIds.size);
  await inPool<() => Promise<void>>([
    ...planned.map((item) => () => pageWork(item)),
    ...[...includeIds].map((include) => () => includeWork(include)),
    ...assets.map((asset) => () => fileWork(asset)),
  ], (work) => work());
  const linked = [...fileIds].slice(assets.length);
  progress.totals(planned.length + includeIds.size, fileIds.size);
  await inPool(linked, fileWork);
  await packer.close();
  await Promise.all(stored);
  for (const item of planned) item.page.slug = slugOfPath(item.path!, item.page);
  includes.sort((a, b) => a.git!.path.localeCompare(b.git!.path));
  files.sort((a, b) => a.git!.path.localeCompare(b.git!.path));

  dedupeSlugs(roots);
  keepDatesOfUnchanged(roots, previousPages);
  const redirects: GitRedirect[] = Object.entries(config.redirects).map(([from, target]) => {
    const to = joinPath(target);
    const page = pageIds.get(to);
    return { from: from.replace(/^\/+|\/+$/g, ''), to, ...(page ? { page } : {}) };
  }).filter((r) => r.from && r.to);
  return {
    manifest: { pages: roots, files, reusableContents: includes, variables: previous?.variables ?? {} },
    stats: { pages: planned.length, files: files.length, reusableContents: includes.length, markdownFastPath },
    redirects,
    warnings: warnings.sort(),
  };
}

/**
 * A page file moved in Git (its old path gone, the same bytes at a new path) keeps its page
 * id, as git sees a rename: its comments, change requests and links from elsewhere follow it.
 * Only exact moves, and only when no other vanished page had the same bytes.
 */
function keepIdsOfMovedPages(previous: Manifest, content: Map<string, FlatEntry>, idsByKey: Map<string, string>): void {
  const vanished = new Map<string, string | undefined>();
  for (const { page } of walkPages(previous.pages)) {
    if (!page.git?.path || !page.git.oid || content.has(page.git.path)) continue;
    vanished.set(page.git.oid, vanished.has(page.git.oid) ? undefined : page.id);
  }
  const arrived = new Map<string, string | undefined>();
  for (const [path, entry] of content) {
    if (!/\.md$/i.test(path) || idsByKey.has(`page:${path}`) || !vanished.get(entry.oid)) continue;
    arrived.set(entry.oid, arrived.has(entry.oid) ? undefined : path);
  }
  for (const [oid, path] of arrived) if (path) idsByKey.set(`page:${path}`, vanished.get(oid)!);
}

const frontmatterWarning = (path: string, error: string) => `${path}: the frontmatter is not valid YAML (${error}); the page was read without it`;

/** Per folder: its .md files and the sub-folders that hold .md files at any depth. */
type FolderIndex = Map<string, { files: string[]; dirs: Set<string> }>;

/** The folders of the content, indexed in one pass (a repository may hold tens of thousands of files). */
function folderIndex(content: Map<string, FlatEntry>, config: GitbookConfig): FolderIndex {
  const index: FolderIndex = new Map();
  const at = (dir: string) => {
    let folder = index.get(dir);
    if (!folder) index.set(dir, (folder = { files: [], dirs: new Set() }));
    return folder;
  };
  for (const path of content.keys()) {
    if (path.startsWith('.gitbook/') || !path.endsWith('.md')) continue;
    if (path !== config.summary) at(dirname(path)).files.push(path);
    // Each folder above holds .md files (stop where an earlier file already said so).
    for (let child = dirname(path); child; child = dirname(child)) {
      const parent = at(dirname(child));
      if (parent.dirs.has(basename(child))) break;
      parent.dirs.add(basename(child));
    }
  }
  return index;
}

/** Without SUMMARY.md: README.md is its folder's page, other .md files its children, sub-folders nest. */
function folderTree(dir: string, index: FolderIndex, content: Map<string, FlatEntry>, config: GitbookConfig, plan: (path: string) => PlannedPage | undefined): ManifestPage[] {
  const folder = index.get(dir);
  const mdFiles = [...(folder?.files ?? [])];
  const subdirs = [...(folder?.dirs ?? [])].filter((sub) => !sub.startsWith('.'));
  const readme = dir ? joinPath(dir, 'README.md') : config.readme;
  const pages: ManifestPage[] = [];
  const readmePage = mdFiles.includes(readme) ? plan(readme)?.page : undefined;
  for (const path of mdFiles.sort()) {
    if (path === readme) continue;
    const p = plan(path);
    if (p) pages.push(p.page);
  }
  for (const sub of subdirs.sort()) {
    const subPath = joinPath(dir, sub);
    const subReadme = joinPath(subPath, 'README.md');
    const children = folderTree(subPath, index, content, config, plan);
    if (content.has(subReadme)) {
      // folderTree planned the sub-folder's README first; it holds the rest.
      const [head, ...rest] = children;
      if (head) {
        head.pages.push(...rest);
        pages.push(head);
      }
    } else {
      pages.push(...children);
    }
  }
  if (dir && readmePage) return [readmePage, ...pages];
  return readmePage ? [readmePage, ...pages] : pages;
}

/**
 * A page the import left as it was (same fields, an equal document) keeps the `updatedAt` of
 * the previous import: only what the commit changed reads as updated.
 */
function keepDatesOfUnchanged(roots: ManifestPage[], previousPages: Map<string, ManifestPage>): void {
  const comparable = (page: ManifestPage) => JSON.stringify(Object.entries(page)
    .filter(([key]) => key !== 'updatedAt' && key !== 'pages')
    .map(([key, value]) => [key, key === 'document' && typeof value === 'string' ? contentHashOf(value) : value])
    .sort(([a], [b]) => (a! < b! ? -1 : 1)));
  for (const { page } of walkPages(roots)) {
    const before = previousPages.get(page.id);
    if (before && comparable(before) === comparable(page)) page.updatedAt = before.updatedAt;
  }
}

/** `guide/setup.md` -> setup, `guide/README.md` -> guide; the top README keeps its title's slug. */
function slugOfPath(path: string, page: ManifestPage): string {
  const name = basename(path);
  if (/^readme\.md$/i.test(name)) return dirname(path) ? slugify(basename(dirname(path))) : page.slug;
  return slugify(name.replace(/\.md$/i, ''));
}

function dedupeSlugs(pages: ManifestPage[]): void {
  const seen = new Set<string>();
  for (const page of pages) {
    let slug = page.slug;
    for (let n = 2; seen.has(slug); n++) slug = `${page.slug}-${n}`;
    page.slug = slug;
    seen.add(slug);
    dedupeSlugs(page.pages);
  }
}

/**
 * Largest file an import reads (GitHub's own limit per file): a file is read whole before
 * it is stored, and the git worker has 512 MB.
 */
export const MAX_IMPORT_FILE_BYTES = 100 * 1024 * 1024;

/** Page files read ahead of the pool's slots (markdown: small; at most this many held). */
const READ_AHEAD = 32;

/**
 * `get(i)`: the bytes of `oids[i]`. Reads are started up to `ahead` items beyond the one asked
 * for, half a window at a time, so that they reach git in batches rather than one per slot.
 * Items are asked for in order (the pool takes them in order).
 */
function readAhead(oids: string[], read: (oid: string) => Promise<Uint8Array>, ahead: number): (index: number) => Promise<Uint8Array> {
  const started = new Map<number, Promise<Uint8Array>>();
  let next = 0;
  return (index) => {
    if (next <= index + ahead / 2) {
      while (next < oids.length && next <= index + ahead) {
        const reading = read(oids[next]!);
        // A read that fails is reported by the page that awaits it (or not at all if the import stopped first).
        reading.catch(() => {});
        started.set(next++, reading);
      }
    }
    const reading = started.get(index) ?? read(oids[index]!);
    started.delete(index);
    return reading;
  };
}

/** `work` on every item, IMPORT_CONCURRENCY at a time; stops taking items at the first failure. */
async function inPool<T>(items: T[], work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  let failed = false;
  const slot = async () => {
    while (!failed && next < items.length) {
      try {
        await work(items[next++]!);
      } catch (error) {
        failed = true;
        throw error;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(IMPORT_CONCURRENCY, items.length) }, slot));
}
