/**
 * A manifest -> the files of a commit, on top of the branch's current tree. Every page goes
 * back to the path it came from (new pages to `<parent>/<slug>.md`, or `<slug>/README.md`
 * when they have subpages), SUMMARY.md is regenerated, and a file whose content would not
 * change (same page, same metadata, same links once parsed again) keeps its bytes, so an
 * unchanged space exports to an unchanged tree.
 */
import { contentHashOf, getBytesBlob, getJsonBlob, hashBytes } from '../content/blobs.ts';
import type { Manifest, ManifestPage, StoredDocument } from '../content/types.ts';
import { slugify } from '../content/tree.ts';
import { EXTERNAL_LINK, dirname, joinPath, parseSummary, printSummary, relativePath, sameSummary, type SummaryEntry, type SummaryGroup } from './format.ts';
import { contentView } from './import.ts';
import { ASSETS_DIR, INCLUDES_DIR } from './format.ts';
import { METADATA_FIELDS, parsePageFile, printPageFile, type IdPaths, type PathResolver } from './pages.ts';
import { gitBlobOid, isRegularFile, type FlatEntry } from './repo.ts';
import { silentProgress, type ProgressSink } from './progress.ts';

export interface ExportTarget {
  files: Map<string, FlatEntry>;
  read(oid: string): Promise<Uint8Array>;
  write(bytes: Uint8Array): Promise<string>;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** Returns the new flat tree (repository paths). Progress counts the bytes written to the repository. */
export async function exportManifest(manifest: Manifest, target: ExportTarget, options: { projectDirectory?: string; progress?: ProgressSink }): Promise<Map<string, FlatEntry>> {
  const progress = options.progress ?? silentProgress;
  const configEntry = target.files.get(joinPath(options.projectDirectory ?? '', '.gitbook.yaml'));
  const configText = isRegularFile(configEntry) ? decoder.decode(await target.read(configEntry.oid)) : undefined;
  const project = joinPath(options.projectDirectory ?? '');
  const hasProject = !project || [...target.files.keys()].some((p) => p.startsWith(`${project}/`));
  const { config, base, content } = hasProject
    ? contentView(target.files, options.projectDirectory, () => configText)
    : { config: { root: '', readme: 'README.md', summary: 'SUMMARY.md', redirects: {} }, base: project, content: new Map<string, FlatEntry>() };
  const out = new Map(target.files);
  /** Writes a file unless it has these bytes already; returns the bytes written. */
  const put = async (path: string, bytes: Uint8Array): Promise<number> => {
    const full = joinPath(base, path);
    const oid = await gitBlobOid(bytes);
    if (out.get(full)?.oid === oid) return 0;
    out.set(full, { oid: await target.write(bytes), mode: '100644' });
    return bytes.length;
  };

  // 1. A path for everything.
  const paths = assignPaths(manifest, config.readme);
  const all = [...walk(manifest.pages, undefined)];

  const byPath = (map: Map<string, string>) => new Map([...map].map(([id, p]) => [p, id]));
  const pageByPath = byPath(paths.pages);
  const fileByPath = byPath(paths.files);
  const includeByPath = byPath(paths.includes);
  const resolver: PathResolver = { page: (p) => pageByPath.get(p), file: (p) => fileByPath.get(p), include: (p) => includeByPath.get(p) };

  // 2. Pages and reusable contents: unchanged ones keep their bytes.
  const documents = all.filter(({ page }) => page.type === 'document' && page.document);
  progress.totals(documents.length + manifest.reusableContents.length, manifest.files.length);
  for (const { page } of documents) {
    const path = paths.pages.get(page.id)!;
    const document = await getJsonBlob<StoredDocument>(page.document!);
    const existing = content.get(path);
    if (existing && await sameAsFile(existing, path, page, page.document!, resolver, target, page.title)) {
      progress.page(0);
      continue;
    }
    progress.page(await put(path, encoder.encode(printPageFile(page, document, path, paths))));
  }
  for (const r of manifest.reusableContents) {
    const path = paths.includes.get(r.id)!;
    const existing = content.get(path);
    if (existing) {
      const parsed = await parsePageFile(decoder.decode(await target.read(existing.oid)), path, resolver);
      if (hashBytes(JSON.stringify(parsed.document)) === contentHashOf(r.document)) {
        progress.page(0);
        continue;
      }
    }
    progress.page(await put(path, encoder.encode(printPageFile({ title: r.title }, await getJsonBlob<StoredDocument>(r.document), path, paths))));
  }

  // 3. Files.
  for (const file of manifest.files) {
    const path = paths.files.get(file.id)!;
    if (content.get(path)?.oid && content.get(path)!.oid === file.git?.oid) {
      progress.file(0);
      continue;
    }
    progress.file(await put(path, await getBytesBlob(file.blob)));
  }

  // 4. SUMMARY.md, and pages that were listed there but are gone.
  const summaryDir = dirname(config.summary);
  const groups = summaryOf(manifest.pages, (id) => relativePath(summaryDir, paths.pages.get(id)!));
  const summaryEntry = content.get(config.summary);
  const previous = summaryEntry ? parseSummary(decoder.decode(await target.read(summaryEntry.oid))) : undefined;
  if (!previous || !sameSummary(previous, groups)) progress.bytes(await put(config.summary, encoder.encode(printSummary(groups))));
  if (previous) {
    const kept = new Set(paths.pages.values());
    const listed = (entries: SummaryEntry[]): string[] => entries.flatMap((e) => [...(e.path ? [joinPath(summaryDir, e.path)] : []), ...listed(e.children)]);
    // Only the files of deleted pages: a symbolic link or submodule listed there is not a page.
    for (const path of previous.flatMap((g) => listed(g.entries))) if (!kept.has(path) && content.has(path)) out.delete(joinPath(base, path));
  }
  return out;
}

/**
 * The file of every page, file and reusable content: where it came from, else a path from
 * its place in the tree (`<parent>/<slug>.md`, `<slug>/README.md` when it has subpages, the
 * first page at `readme`). Export writes there; `format=markdown` reads link there.
 */
export function assignPaths(manifest: Manifest, readme = 'README.md'): IdPaths {
  const paths: IdPaths = { pages: new Map(), files: new Map(), includes: new Map() };
  const taken = new Set<string>();
  const claim = (path: string) => {
    let candidate = path;
    for (let n = 2; taken.has(candidate.toLowerCase()); n++) candidate = path.replace(/(\/README)?\.md$/i, (m) => `-${n}${m}`);
    taken.add(candidate.toLowerCase());
    return candidate;
  };
  const all = [...walk(manifest.pages, undefined)];
  for (const { page } of all) if (page.type === 'document' && page.git?.path) paths.pages.set(page.id, claim(page.git.path));
  let first = true;
  for (const { page, parent } of all) {
    if (page.type !== 'document' || paths.pages.has(page.id)) {
      first = false;
      continue;
    }
    const parentPath = parent ? (paths.pages.get(parent.id) ?? `${slugify(parent.slug)}/x`) : '';
    const dir = parent ? (/readme\.md$/i.test(parentPath) ? dirname(parentPath) : parentPath.replace(/(\/x|\.md)$/i, '')) : '';
    const path = first && !parent && !taken.has(readme.toLowerCase())
      ? readme
      : page.pages.length > 0 ? joinPath(dir, page.slug, 'README.md') : joinPath(dir, `${page.slug}.md`);
    paths.pages.set(page.id, claim(path));
    first = false;
  }
  for (const file of manifest.files) paths.files.set(file.id, claim(file.git?.path ?? joinPath(ASSETS_DIR, file.name)));
  for (const r of manifest.reusableContents) paths.includes.set(r.id, claim(r.git?.path ?? joinPath(INCLUDES_DIR, `${slugify(r.title)}.md`)));

  return paths;
}

function* walk(pages: ManifestPage[], parent: ManifestPage | undefined): Generator<{ page: ManifestPage; parent: ManifestPage | undefined }> {
  for (const page of pages) {
    yield { page, parent };
    yield* walk(page.pages, page.type === 'group' ? parent : page);
  }
}

/** Whether the file already says what the page says (so its bytes stay as they are). */
async function sameAsFile(existing: FlatEntry, path: string, page: ManifestPage, documentRef: string, resolver: PathResolver, target: ExportTarget, summaryTitle: string): Promise<boolean> {
  const parsed = await parsePageFile(decoder.decode(await target.read(existing.oid)), path, resolver, summaryTitle);
  if (parsed.title !== page.title) return false;
  if (hashBytes(JSON.stringify(parsed.document)) !== contentHashOf(documentRef)) return false;
  for (const key of METADATA_FIELDS) {
    if (JSON.stringify(parsed.metadata[key]) !== JSON.stringify(page[key])) return false;
  }
  return true;
}

/** The table of contents of a page tree; groups become `##` headings. */
function summaryOf(pages: ManifestPage[], pathOf: (id: string) => string): SummaryGroup[] {
  const entries = (list: ManifestPage[]): SummaryEntry[] => list.flatMap((page): SummaryEntry[] => {
    // A file listed again in SUMMARY.md was imported as a link to that path (relative to SUMMARY.md).
    if (page.type === 'link') return [{ title: page.title, ...(EXTERNAL_LINK.test(page.href ?? '') ? { href: page.href } : { path: page.href }), children: entries(page.pages) }];
    if (page.type === 'group') return entries(page.pages);
    return [{ title: page.title, path: pathOf(page.id), children: entries(page.pages) }];
  });
  const groups: SummaryGroup[] = [];
  for (const page of pages) {
    // A group's slug is its SUMMARY anchor when it is not its title's.
    if (page.type === 'group') groups.push({ title: page.title, ...(page.slug !== slugify(page.title) ? { anchor: page.slug } : {}), entries: entries(page.pages) });
    else if (groups.length === 0 || groups.at(-1)!.title !== undefined) groups.push({ entries: entries([page]) });
    else groups.at(-1)!.entries.push(...entries([page]));
  }
  return groups;
}
