/**
 * Rewrites link targets inside a document: in-batch references (`./<ref>.md`, `<ref>`),
 * paths of existing pages (`./guide/setup.md`) and the public interface's `/pages/<id>` and
 * `/files/<id>` become page and file references by id.
 */
export function resolveDocumentRefs<T>(document: T, refs: { pages: Map<string, string>; files: Map<string, string>; paths: Map<string, string> }): T {
  const target = (url: string): { kind: 'page'; page: string } | { kind: 'file'; file: string } | undefined => {
    const pageId = /^\/pages\/([A-Za-z0-9_-]+)$/.exec(url)?.[1];
    if (pageId) return { kind: 'page', page: pageId };
    const fileId = /^\/files\/([A-Za-z0-9_-]+)$/.exec(url)?.[1];
    if (fileId) return { kind: 'file', file: fileId };
    const name = url.replace(/^\.\//, '').replace(/\.md$/, '');
    const page = refs.pages.get(name) ?? refs.paths.get(name.replace(/\/README$/i, ''));
    if (page) return { kind: 'page', page };
    const file = refs.files.get(name) ?? refs.files.get(url.replace(/^\.\//, ''));
    if (file) return { kind: 'file', file };
    return undefined;
  };
  const visit = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(visit);
    if (!node || typeof node !== 'object') return node;
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(node)) {
      const ref = value as { kind?: unknown; url?: unknown; page?: unknown; file?: unknown; anchor?: unknown } | null;
      // The markdown parser leaves relative targets as written (url, page path or file path).
      const written = ref && typeof ref === 'object' ? [ref.url, ref.page, ref.file].find((t) => typeof t === 'string') : undefined;
      if ((key === 'ref' || key === 'src') && typeof written === 'string') {
        const resolved = target(written);
        // A link to a section of another page keeps its anchor (`./api.md#auth`).
        out[key] = resolved?.kind === 'page' && ref!.kind === 'anchor' && typeof ref!.anchor === 'string'
          ? { kind: 'anchor', anchor: ref!.anchor, page: resolved.page }
          : resolved ?? value;
      } else {
        out[key] = visit(value);
      }
    }
    return out;
  };
  return visit(document) as T;
}
