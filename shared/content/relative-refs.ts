/**
 * Relative links of a markdown edit (`[Install](../install.md)`, `![D](../.gitbook/assets/d.png)`,
 * `{% include "../.gitbook/includes/x.md" %}`) resolved as a Git import resolves them, so that
 * markdown written for a repository means the same through the API: from the page's file in the
 * repository when the page came from Git (`git.path`), else from where Git export writes the
 * page (its tree path: `a/b.md`, or `a/b/README.md` for a page with subpages). Targets are
 * looked up by repository path first, then by tree path (pages) or by name under the assets
 * folder (files). A target that names nothing stays as written, as on import.
 */
import { ASSETS_DIR, basename, dirname } from '../git/format.ts';
import { resolveRefs, type PathResolver } from '../git/pages.ts';
import { walkPages } from './tree.ts';
import type { Manifest, ManifestPage, StoredDocument } from './types.ts';

/**
 * The folder a page's relative links start from: its file's folder in the repository when it
 * came from Git, else the folder Git export writes it in (`a/b.md` -> `a`, or `a/b` for
 * `a/b/README.md`, a page with subpages). `path` is the page's tree path.
 */
export function pageFolder(page: ManifestPage, path: string): string {
  return page.git?.path || page.pages.length > 0 ? subpagesFolder(page, path) : dirname(path);
}

/** The folder a page's subpages are written in (a new subpage's links start there): its file's folder, else its tree path. */
export function subpagesFolder(page: ManifestPage, path: string): string {
  return page.git?.path ? dirname(page.git.path) : path;
}

/** `document`'s relative targets, read from `fromDir`, as ids of `manifest`'s pages, files and reusable contents. */
export function resolveRelativeRefs(document: StoredDocument, manifest: Manifest, fromDir: string): StoredDocument {
  return resolveRefs(document, fromDir, manifestResolver(manifest));
}

function manifestResolver(manifest: Manifest): PathResolver {
  let built: { pagesByGit: Map<string, string>; pagesByTree: Map<string, string>; filesByGit: Map<string, string>; filesByName: Map<string, string>; includes: Map<string, string> } | undefined;
  // Built on the first lookup: most edits have no relative link at all.
  const maps = () => {
    if (built) return built;
    built = { pagesByGit: new Map(), pagesByTree: new Map(), filesByGit: new Map(), filesByName: new Map(), includes: new Map() };
    for (const { page, path } of walkPages(manifest.pages)) {
      if (page.type !== 'document') continue;
      if (page.git?.path) built.pagesByGit.set(page.git.path, page.id);
      built.pagesByTree.set(path, page.id);
    }
    for (const file of manifest.files) {
      if (file.git?.path) built.filesByGit.set(file.git.path, file.id);
      if (!built.filesByName.has(file.name)) built.filesByName.set(file.name, file.id);
    }
    for (const r of manifest.reusableContents) if (r.git?.path) built.includes.set(r.git.path, r.id);
    return built;
  };
  return {
    page: (path) => maps().pagesByGit.get(path) ?? maps().pagesByTree.get(path.replace(/(^|\/)README\.md$/i, '').replace(/\.md$/i, '')),
    file: (path) => maps().filesByGit.get(path) ?? (path.startsWith(`${ASSETS_DIR}/`) ? maps().filesByName.get(basename(path)) : undefined),
    include: (path) => maps().includes.get(path),
  };
}
