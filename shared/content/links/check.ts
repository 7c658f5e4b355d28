import { posix } from 'node:path';
import { config } from '../../config.ts';
import { walkPages } from '../tree.ts';
import type { Manifest } from '../types.ts';
import type { LinkIndex } from './link-index.ts';

export type LinkStatus = 'ok' | 'broken' | 'in-app';
export const linkStatuses: readonly LinkStatus[] = ['ok', 'broken', 'in-app'];

/** What a link points at, resolved against the revision where possible. */
export type LinkTarget =
  | { kind: 'url'; url: string }
  | { kind: 'page'; page: string; anchor?: string }
  | { kind: 'file'; file: string };

/** Where a link sits: a page and the key of the block holding it. */
export interface LinkLocation {
  page: string;
  node: string;
}

/** One distinct link target of the checked content, with every place it is linked from. */
export interface CheckedLink {
  key: string;
  status: LinkStatus;
  target: LinkTarget;
  locations: LinkLocation[];
}

/**
 * Checks every link of a revision (or of one page of it, with `pageId`) against the
 * revision itself, without fetching anything:
 * - page links (by id, or by a path not resolved when written: relative to the linking
 *   page, then from the root) are `broken` when no such page exists, and cross-page anchors
 *   when the target page has no heading with that anchor;
 * - in-page anchors (`#x`) are `broken` when the page has no such heading;
 * - file links (by id, or by a path whose last segment is a file name) are `broken` when
 *   the revision has no such file;
 * - URLs of the app itself (config.appUrl) are `in-app`; other URLs are `ok` (external
 *   targets are not fetched).
 * Links to the same target are one item; items come in order of first appearance
 * (pages depth first, then document order).
 */
export function checkLinks(manifest: Manifest, index: LinkIndex, options: { pageId?: string } = {}): CheckedLink[] {
  const pathOf = new Map<string, string>();
  const idOfPath = new Map<string, string>();
  for (const { page, path } of walkPages(manifest.pages)) {
    pathOf.set(page.id, path);
    idOfPath.set(path, page.id);
  }
  const fileIds = new Set(manifest.files.map((f) => f.id));
  const fileByName = new Map<string, string>();
  for (const file of manifest.files) if (!fileByName.has(file.name)) fileByName.set(file.name, file.id);
  const anchorsOf = new Map(index.pages.map((p) => [p.page, new Set(p.anchors)]));

  const resolvePage = (written: string, from: string): string | undefined => {
    if (pathOf.has(written)) return written;
    const path = written.replace(/\.md$/i, '').replace(/\/README$/i, '').replace(/\/+$/, '');
    const dir = posix.dirname(pathOf.get(from) ?? '');
    for (const candidate of [posix.join(dir, path), posix.normalize(path)]) {
      const id = idOfPath.get(candidate.replace(/^(\.\/|\/)+/, ''));
      if (id) return id;
    }
    return undefined;
  };
  const resolveFile = (written: string): string | undefined => {
    if (fileIds.has(written)) return written;
    let name = written.split('/').pop() ?? '';
    try {
      name = decodeURIComponent(name);
    } catch {
      // keep as written
    }
    return fileByName.get(name);
  };
  const appUrl = config.appUrl.toLowerCase();
  const isInApp = (url: string) => {
    const lower = url.toLowerCase();
    return lower === appUrl || (lower.startsWith(appUrl) && '/?#'.includes(lower[appUrl.length]!));
  };

  const items = new Map<string, CheckedLink>();
  const add = (key: string, status: LinkStatus, target: LinkTarget, location: LinkLocation) => {
    const item = items.get(key);
    if (!item) {
      items.set(key, { key, status, target, locations: [location] });
      return;
    }
    if (!item.locations.some((l) => l.page === location.page && l.node === location.node)) item.locations.push(location);
  };

  for (const pageLinks of index.pages) {
    if (options.pageId !== undefined && pageLinks.page !== options.pageId) continue;
    for (const link of pageLinks.links) {
      const location = { page: pageLinks.page, node: link.blockKey };
      switch (link.kind) {
        case 'url':
          add(`url:${link.target}`, isInApp(link.target) ? 'in-app' : 'ok', { kind: 'url', url: link.target }, location);
          break;
        case 'anchor': {
          const anchor = link.target.replace(/^#/, '');
          const found = anchorsOf.get(pageLinks.page)?.has(anchor) ?? false;
          add(`page:${pageLinks.page}#${anchor}`, found ? 'ok' : 'broken', { kind: 'page', page: pageLinks.page, anchor }, location);
          break;
        }
        case 'page': {
          const hash = link.target.indexOf('#');
          const written = hash < 0 ? link.target : link.target.slice(0, hash);
          const anchor = hash < 0 ? undefined : link.target.slice(hash + 1);
          const id = resolvePage(written, pageLinks.page);
          const found = id !== undefined && (anchor === undefined || anchor === '' || (anchorsOf.get(id)?.has(anchor) ?? false));
          const target: LinkTarget = { kind: 'page', page: id ?? written, ...(anchor ? { anchor } : {}) };
          add(`page:${id ?? written}#${anchor ?? ''}`, found ? 'ok' : 'broken', target, location);
          break;
        }
        case 'file': {
          const id = resolveFile(link.target);
          add(`file:${id ?? link.target}`, id ? 'ok' : 'broken', { kind: 'file', file: id ?? link.target }, location);
          break;
        }
      }
    }
  }
  return [...items.values()];
}
