import { openAPISpecEntity, type OpenAPISpecItem } from '../db/entities/openapi-spec.ts';
import { getJsonBlob } from './blobs.ts';
import { openAPIFile, type SpecFileFailure } from './openapi-files.ts';
import { operationFragment, schemasFragment } from './openapi-fragment.ts';
import { operationView, schemasView, webhookView } from './openapi-operation.ts';
import type { ManifestFile, StoredDocument } from './types.ts';

/**
 * `{% swagger %}` / `{% openapi %}` blocks name their spec by a file or URL (`src`); when that
 * is a stored OpenAPI spec of the organization (its source URL, or its slug written as the
 * `src`), the reader renders the block from that spec. Matched when read, not when imported:
 * a spec added or re-pointed later matches without touching the revisions. The document's own
 * `data.ref` stays what the page wrote for every other reader (API reads, Git export).
 * Operation blocks naming a stored spec (these, `openapi-operation`, `openapi-webhook`) then get
 * the operation of the spec's last processed version (shared/content/openapi-operation.ts).
 * A swagger block whose `src` is a file of the space (and no stored spec) gets the operation
 * of that file's spec (shared/content/openapi-files.ts), as GitBook renders legacy blocks.
 */

type Spec = { slug: string; sourceURL?: string };
/** `fragments`: also attach each block's spec fragment (the markdown exports print it). */
export type SpecOptions = { fragments?: boolean };
type Node = { type?: string; data?: Record<string, unknown>; nodes?: unknown[]; fragments?: { nodes?: unknown[] }[] };

const SPEC_BLOCKS = new Set(['swagger']);
/** Blocks showing part of a spec: the reader gets its view (`data.openapiView`, `data.openapiSchemas`). */
const OPERATION_BLOCKS = new Set(['swagger', 'openapi-operation', 'openapi-webhook', 'openapi-schemas']);

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
  return (nodes as Node[]).some((n) => (n.type !== undefined && OPERATION_BLOCKS.has(n.type)) || hasSpecBlocks(n.nodes) || (n.fragments ?? []).some((f) => hasSpecBlocks(f.nodes)));
}

/** The document with `change` applied to each block of `types` (data and all). */
function mapBlocks(document: StoredDocument, types: Set<string>, change: (node: Node) => Node): StoredDocument {
  const visit = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(visit);
    if (!node || typeof node !== 'object') return node;
    const out = Object.fromEntries(Object.entries(node).map(([k, v]) => [k, k === 'data' ? v : visit(v)])) as Node;
    return out.type && types.has(out.type) ? change(out) : out;
  };
  return visit(document) as StoredDocument;
}

const FILE_KEY = 'file:';
/**
 * The key of the spec a block shows: a stored spec's slug, or `file:<id>` for a swagger block
 * naming a file of the space (a slug has no colon, so the two never meet).
 */
const specOf = (node: Node) => {
  const ref = node.data?.ref as { kind?: string; spec?: unknown; file?: unknown } | undefined;
  if (ref?.kind === 'openapi' && typeof ref.spec === 'string') return ref.spec;
  return node.type !== undefined && SPEC_BLOCKS.has(node.type) && ref?.kind === 'file' && typeof ref.file === 'string' ? `${FILE_KEY}${ref.file}` : undefined;
};

/**
 * The document with each matched swagger block's `data.ref` the stored spec's
 * (`{kind: "openapi", spec: slug}`, the ref `openapi-operation` blocks hold), the written ref
 * kept in `data.sourceRef`.
 */
export function linkOpenAPISpecs(document: StoredDocument, specs: Spec[]): StoredDocument {
  if (specs.length === 0) return document;
  return mapBlocks(document, SPEC_BLOCKS, (node) => {
    const slug = matchingSpec(node.data?.ref, specs);
    return slug ? { ...node, data: { ...node.data, ref: { kind: 'openapi', spec: slug }, sourceRef: node.data!.ref } } : node;
  });
}

/**
 * Each operation block naming a stored spec with a processed version gets `data.openapiView`:
 * the operation (`path`/`method`) or 3.1 webhook (`name`/`method`) of that version, or
 * `{missing: true}` when the version has none (the reader says so); an `openapi-schemas`
 * block gets `data.openapiSchemas`, the schemas it names. A block whose spec file could not be
 * read gets `data.openapiFailure`, the reason (the reader says it). With `fragments` (the
 * markdown exports), each also gets `data.openapiFragment`: the part of the spec it shows
 * (shared/content/openapi-fragment.ts), as GitBook's `.md` pages print it.
 */
export function withOperationViews(document: StoredDocument, documents: Map<string, Record<string, unknown>>, failures = new Map<string, SpecFileFailure>(), options: SpecOptions = {}): StoredDocument {
  if (documents.size === 0 && failures.size === 0) return document;
  return mapBlocks(document, OPERATION_BLOCKS, (node) => {
    const key = specOf(node) ?? '';
    const failure = failures.get(key);
    if (failure) return { ...node, data: { ...node.data, openapiFailure: failure } };
    const spec = documents.get(key);
    if (!spec) return node;
    const data = node.data ?? {};
    if (node.type === 'openapi-schemas') {
      // The public model's array, or the markdown attribute as written (`schemas="Pet,Category"`).
      const names = Array.isArray(data.schemas) ? data.schemas.filter((n): n is string => typeof n === 'string')
        : typeof data.schemas === 'string' ? data.schemas.split(',').map((n) => n.trim()).filter(Boolean) : [];
      const fragment = options.fragments ? schemasFragment(spec, names) : undefined;
      return { ...node, data: { ...data, openapiSchemas: schemasView(spec, names), ...(fragment ? { openapiFragment: fragment } : {}) } };
    }
    const method = typeof data.method === 'string' ? data.method : '';
    const view = node.type === 'openapi-webhook'
      ? webhookView(spec, String(data.name ?? ''), method || 'post')
      : operationView(spec, String(data.path ?? ''), method);
    const fragment = view && options.fragments
      ? node.type === 'openapi-webhook' ? operationFragment(spec, 'webhook', String(data.name ?? ''), method || 'post') : operationFragment(spec, 'path', String(data.path ?? ''), method)
      : undefined;
    return { ...node, data: { ...data, openapiView: view ?? { missing: true }, ...(fragment ? { openapiFragment: fragment } : {}) } };
  });
}

/** The keys (specOf) of the specs a document's operation blocks name. */
function namedSpecs(document: StoredDocument): Set<string> {
  const slugs = new Set<string>();
  mapBlocks(document, OPERATION_BLOCKS, (node) => {
    const slug = specOf(node);
    if (slug) slugs.add(slug);
    return node;
  });
  return slugs;
}

/** The organization's stored specs when the document has blocks that may show one (else none: no read). */
export async function openAPISpecsOf(document: StoredDocument, orgId: string): Promise<OpenAPISpecItem[]> {
  if (!hasSpecBlocks(document.nodes as unknown[])) return [];
  return openAPISpecEntity.query.inOrg({ orgId }).all();
}

/** What of the specs a rendering depends on (for the reader's ETag): their slugs, URLs and versions. */
export function openAPISpecsKey(specs: OpenAPISpecItem[]): string {
  return specs.map((s) => `${s.slug}:${s.lastVersion ?? ''}:${s.sourceURL ?? ''}`).join(',');
}

/**
 * linkOpenAPISpecs with the organization's stored specs (openAPISpecsOf), then the operation
 * views from the last processed version of each spec named, and from each file of the
 * revision (`files`) a swagger block names that no stored spec matched.
 */
export async function withOpenAPISpecs(document: StoredDocument, specs: OpenAPISpecItem[], files: ManifestFile[] = [], options: SpecOptions = {}): Promise<StoredDocument> {
  if (!hasSpecBlocks(document.nodes as unknown[])) return document;
  const linked = linkOpenAPISpecs(document, specs.map((s) => ({ slug: s.slug, ...(s.sourceURL ? { sourceURL: s.sourceURL } : {}) })));
  const named = namedSpecs(linked);
  if (named.size === 0) return linked;
  const documents = new Map<string, Record<string, unknown>>();
  const failures = new Map<string, SpecFileFailure>();
  for (const spec of specs) {
    if (named.has(spec.slug) && spec.lastVersionBlob) documents.set(spec.slug, await getJsonBlob<Record<string, unknown>>(spec.lastVersionBlob));
  }
  for (const key of named) {
    if (!key.startsWith(FILE_KEY)) continue;
    const read = await openAPIFile(files, key.slice(FILE_KEY.length));
    if ('document' in read) documents.set(key, read.document);
    else failures.set(key, read.failure);
  }
  return withOperationViews(linked, documents, failures, options);
}
