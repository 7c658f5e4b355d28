import { openAPISpecEntity } from '../db/entities/openapi-spec.ts';
import type { StoredDocument } from './types.ts';

/**
 * `{% swagger %}` / `{% openapi %}` blocks name their spec by a file or URL (`src`); when that
 * is a stored OpenAPI spec of the organization (its source URL, or its slug written as the
 * `src`), the reader renders the block from that spec. Matched when read, not when imported:
 * a spec added or re-pointed later matches without touching the revisions. The document's own
 * `data.ref` stays what the page wrote for every other reader (API reads, Git export).
 */

type Spec = { slug: string; sourceURL?: string };
type Node = { type?: string; data?: Record<string, unknown>; nodes?: unknown[]; fragments?: { nodes?: unknown[] }[] };

const SPEC_BLOCKS = new Set(['swagger']);

/** The slug of the stored spec a block's ref names, if any. */
function matchingSpec(ref: unknown, specs: Spec[]): string | undefined {
  const r = ref as { kind?: string; url?: string; file?: string; page?: string } | undefined;
  if (!r) return undefined;
  if (r.kind === 'url' && r.url) return specs.find((s) => s.sourceURL === r.url)?.slug;
  // A `src` that is neither a file of the space nor a URL: a spec's slug.
  const written = r.kind === 'file' ? r.file : r.kind === 'page' ? r.page : undefined;
  return written ? specs.find((s) => s.slug === written)?.slug : undefined;
}

function hasSpecBlocks(nodes: unknown[] = []): boolean {
  return (nodes as Node[]).some((n) => (n.type !== undefined && SPEC_BLOCKS.has(n.type)) || hasSpecBlocks(n.nodes) || (n.fragments ?? []).some((f) => hasSpecBlocks(f.nodes)));
}

/**
 * The document with each matched swagger block's `data.ref` the stored spec's
 * (`{kind: "openapi", spec: slug}`, the ref `openapi-operation` blocks hold), the written ref
 * kept in `data.sourceRef`.
 */
export function linkOpenAPISpecs(document: StoredDocument, specs: Spec[]): StoredDocument {
  if (specs.length === 0) return document;
  const visit = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(visit);
    if (!node || typeof node !== 'object') return node;
    const out = Object.fromEntries(Object.entries(node).map(([k, v]) => [k, k === 'data' ? v : visit(v)])) as Node;
    const slug = out.type && SPEC_BLOCKS.has(out.type) ? matchingSpec(out.data?.ref, specs) : undefined;
    if (slug) out.data = { ...out.data, ref: { kind: 'openapi', spec: slug }, sourceRef: out.data!.ref };
    return out;
  };
  return visit(document) as StoredDocument;
}

/** linkOpenAPISpecs with the organization's stored specs (read only when the document has such blocks). */
export async function withOpenAPISpecs(document: StoredDocument, orgId: string): Promise<StoredDocument> {
  if (!hasSpecBlocks(document.nodes as unknown[])) return document;
  const specs = await openAPISpecEntity.query.inOrg({ orgId }).all();
  return linkOpenAPISpecs(document, specs.map((s) => ({ slug: s.slug, ...(s.sourceURL ? { sourceURL: s.sourceURL } : {}) })));
}
