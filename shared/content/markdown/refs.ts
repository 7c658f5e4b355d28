import type { ContentRef } from './types.ts';

/**
 * Markdown link targets <-> GitBook content refs. The mapping is lossless
 * (targetOf(refFromTarget(t)) === t) so links print back exactly as written.
 */

const SCHEME = /^[a-z][a-z0-9+.-]*:/i;

/** Absolute URLs, protocol-relative and site-absolute paths, and anything with a query stay urls. */
function isExternal(target: string): boolean {
  return target === '' || SCHEME.test(target) || target.startsWith('/') || target.includes('?');
}

/** A link in text: in-page anchors, pages (`.md`, folders, extensionless), other relative paths are files. */
export function refFromTarget(target: string): ContentRef {
  if (isExternal(target)) return { kind: 'url', url: target };
  if (target.startsWith('#')) return { kind: 'anchor', anchor: target.slice(1) };
  const hash = target.indexOf('#');
  const path = hash < 0 ? target : target.slice(0, hash);
  const last = path.split('/').pop() ?? '';
  const extension = /\.([a-z0-9]+)$/i.exec(last)?.[1]?.toLowerCase();
  const isPage = path.endsWith('/') || extension === undefined || extension === 'md';
  if (!isPage) return { kind: 'file', file: target };
  if (hash < 0) return { kind: 'page', page: path };
  return { kind: 'anchor', anchor: target.slice(hash + 1), page: path };
}

/** Image and file sources: relative paths are files (e.g. `.gitbook/assets/x.png`), the rest urls. */
export function fileRefFromSource(source: string): ContentRef {
  return isExternal(source) ? { kind: 'url', url: source } : { kind: 'file', file: source };
}

/** The markdown target of a ref; unknown ref kinds (from API documents) fall back to their id. */
export function targetOf(ref: unknown): string {
  if (!ref || typeof ref !== 'object') return '';
  const r = ref as Record<string, unknown>;
  switch (r.kind) {
    case 'url':
      return String(r.url ?? '');
    case 'page':
      return String(r.page ?? '');
    case 'file':
      return String(r.file ?? '');
    case 'anchor':
      return `${typeof r.page === 'string' ? r.page : ''}#${String(r.anchor ?? '')}`;
    default:
      return typeof r.url === 'string' ? r.url : '';
  }
}

/** Link-check kind: a cross-page anchor is a page link; only `#x` is an in-page anchor. */
export function linkKind(ref: unknown): 'url' | 'page' | 'file' | 'anchor' | undefined {
  if (!ref || typeof ref !== 'object') return undefined;
  const r = ref as Record<string, unknown>;
  if (r.kind === 'url' || r.kind === 'page' || r.kind === 'file') return r.kind;
  if (r.kind === 'anchor') return typeof r.page === 'string' && r.page !== '' ? 'page' : 'anchor';
  return undefined;
}

/** A link target's path as a file path (`my%20file.md` -> `my file.md`); malformed escapes stay as written. */
export function decodeTargetPath(path: string): string {
  try {
    return decodeURI(path);
  } catch {
    return path;
  }
}
