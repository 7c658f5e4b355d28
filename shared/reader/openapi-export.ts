import type { BlockContent, Root, RootContent, TableRow } from 'mdast';
import remarkGfm from 'remark-gfm';
import remarkStringify from 'remark-stringify';
import { unified } from 'unified';
import { markdownToDocument } from '../content/markdown/parse.ts';
import type { OperationView, SchemaView } from '../content/openapi-operation.ts';
import type { SpecFileFailure } from '../content/openapi-files.ts';
import type { ManifestFile, StoredDocument } from '../content/types.ts';
import type { OpenAPISpecItem } from '../db/entities/openapi-spec.ts';
import { withOpenAPISpecs } from '../content/openapi-specs.ts';
import { ENGLISH, message, type ReaderIntl } from './messages.ts';

/**
 * OpenAPI blocks in the exports that print a page rather than show it. The reader's HTML
 * draws them from `data.openapiView` (shared/reader/blocks-extended.ts); the exports replace
 * each block (after shared/content/openapi-specs.ts attached its view) by document blocks:
 * - `markdown` (`.md`, llms-full.txt), as GitBook's `.md` pages print an OpenAPI block: a
 *   heading (the summary), the description as a quote, then the operation's part of the spec
 *   as a fenced JSON block (`data.openapiFragment`, shared/content/openapi-fragment.ts);
 * - `readable` (PDF): method and path, summary, description, servers, then tables of the
 *   parameters, request body and responses.
 * A block whose spec lacks the operation, or whose spec file cannot be read, prints the
 * sentence the HTML page shows. What the page wrote inside the block follows. Everything is
 * built as mdast, printed, and parsed back as a document: text is escaped by the printer, the
 * descriptions' CommonMark is parsed like any page's (its HTML then sanitized by the export).
 */

type Node = { object?: string; type?: string; data?: Record<string, unknown>; nodes?: Node[]; fragments?: { nodes?: Node[] }[] };
type Mode = 'markdown' | 'readable';

const BLOCKS = new Set(['swagger', 'openapi-operation', 'openapi-webhook', 'openapi-schemas']);
const printer = unified().use(remarkGfm).use(remarkStringify, { bullet: '-', listItemIndent: 'one', fences: true }).freeze();

const str = (v: unknown) => (typeof v === 'string' ? v : '');
const text = (value: string) => ({ type: 'text' as const, value });
const para = (...children: ({ type: 'text'; value: string } | { type: 'inlineCode'; value: string } | { type: 'strong'; children: { type: 'text'; value: string }[] })[]): BlockContent => ({ type: 'paragraph', children });
/** A description's CommonMark as written: parsed again with the rest. */
const raw = (value: string): BlockContent => ({ type: 'html', value });

/** The spec a block names as the HTML page says it: a stored spec's slug, or the file's name. */
export function specLabel(data: Record<string, unknown>, fileName: (id: string) => string | undefined): string | undefined {
  const ref = data.ref as { kind?: string; spec?: string; file?: string } | undefined;
  if (ref?.kind === 'openapi') return ref.spec;
  return ref?.kind === 'file' && (data.openapiView || data.openapiFailure) ? fileName(ref.file ?? '') ?? ref.file : undefined;
}

/** The sentence the HTML page shows for a block without its operation; undefined when it has one (or no spec). */
export function openAPINotice(data: Record<string, unknown>, fileName: (id: string) => string | undefined, intl: ReaderIntl): string | undefined {
  const view = data.openapiView as OperationView | { missing: true } | undefined;
  const failure = data.openapiFailure as SpecFileFailure | undefined;
  const spec = specLabel(data, fileName) ?? '';
  if (view && 'missing' in view) return message(intl, 'openapiMissing', { spec, method: str(data.method).toUpperCase(), path: str(data.path || data.name) });
  if (failure) return failure.reason === 'missing' ? message(intl, 'openapiFileMissing', { file: spec }) : message(intl, 'openapiFileUnreadable', { file: spec, reason: failure.detail });
  return undefined;
}

/** The fenced JSON of a fragment (one line, as GitBook prints it). */
const fragmentCode = (fragment: unknown): RootContent[] => (fragment ? [{ type: 'code', lang: 'json', value: JSON.stringify(fragment) }] : []);

function markdownOperation(data: Record<string, unknown>, view: OperationView): RootContent[] {
  const title = str(data.summary) || view.summary || `${view.method} ${view.path}`;
  const description = view.description ?? (view.summary && view.summary !== title ? view.summary : undefined);
  return [
    { type: 'heading', depth: 2, children: [text(title)] },
    ...(description ? [{ type: 'blockquote' as const, children: [raw(description)] }] : []),
    ...fragmentCode(data.openapiFragment),
  ];
}

const typeOf = (schema?: SchemaView) => schema?.type ?? '';
const firstLine = (value?: string) => (value ?? '').split(/\n\s*\n/)[0]!.replace(/\s+/g, ' ').trim();

function table(header: string[], rows: string[][]): RootContent {
  const row = (cells: string[]): TableRow => ({ type: 'tableRow', children: cells.map((c) => ({ type: 'tableCell', children: c ? [text(c)] : [] })) });
  return { type: 'table', children: [row(header), ...rows.map(row)] };
}

function readableOperation(data: Record<string, unknown>, view: OperationView, intl: ReaderIntl): RootContent[] {
  const say = (key: Parameters<typeof message>[1]) => message(intl, key);
  const summary = str(data.summary) || view.summary;
  const out: RootContent[] = [
    { type: 'heading', depth: 3, children: [text(`${view.method} ${view.path}`)] },
    ...(summary ? [para({ type: 'strong', children: [text(summary)] })] : []),
    ...(view.deprecated ? [para(text(say('openapiDeprecated')))] : []),
    ...(view.description ? [raw(view.description)] : []),
    ...view.servers.map((s) => para({ type: 'inlineCode', value: `${view.method} ${s.replace(/\/$/, '')}${view.path}` })),
  ];
  if (view.security.length > 0) out.push(para({ type: 'strong', children: [text(say('openapiAuthorization'))] }), para(text(view.security.join(', '))));
  if (view.parameters.length > 0) {
    out.push({ type: 'heading', depth: 4, children: [text(say('openapiParameters'))] });
    out.push(table(['Name', 'In', 'Type', 'Required', 'Description'], view.parameters.map((p) => [p.name, p.in, typeOf(p.schema), p.required ? say('openapiRequired') : '', firstLine(p.description ?? p.schema?.description)])));
  }
  if (view.requestBody) {
    const rb = view.requestBody;
    out.push({ type: 'heading', depth: 4, children: [text(say('openapiRequestBody'))] });
    if (rb.description) out.push(raw(rb.description));
    const rows = rb.contents.flatMap((c) => (c.schema?.properties ?? []).map((p) => [`${p.name ?? ''}`, typeOf(p), p.required ? say('openapiRequired') : '', firstLine(p.description)]));
    if (rb.contents.length > 0) out.push(para(text(rb.contents.map((c) => `${c.mediaType}${c.schema?.type ? ` (${c.schema.type})` : ''}`).join(', '))));
    if (rows.length > 0) out.push(table(['Name', 'Type', 'Required', 'Description'], rows));
  }
  if (view.responses.length > 0) {
    out.push({ type: 'heading', depth: 4, children: [text(say('openapiResponses'))] });
    out.push(table(['Status', 'Description', 'Content'], view.responses.map((r) => [r.status, firstLine(r.description), r.contents.map((c) => `${c.mediaType}${c.schema?.type ? ` (${c.schema.type})` : ''}`).join(', ')])));
  }
  return out;
}

function replacement(node: Node, mode: Mode, fileName: (id: string) => string | undefined, intl: ReaderIntl): RootContent[] | undefined {
  const data = node.data ?? {};
  const notice = openAPINotice(data, fileName, intl);
  if (notice) return [para(text(notice))];
  if (node.type === 'openapi-schemas' && Array.isArray(data.openapiSchemas)) {
    const list = data.openapiSchemas as { name: string; schema: SchemaView }[];
    const heading = str(data.title) || (list.length === 1 ? message(intl, 'openapiObject', { name: list[0]!.name }) : '');
    return [
      ...(heading ? [{ type: 'heading' as const, depth: 2 as const, children: [text(heading)] }] : []),
      ...(mode === 'markdown' ? fragmentCode(data.openapiFragment)
        : list.flatMap(({ name, schema }) => [para({ type: 'strong', children: [text(name)] }), ...(schema.description ? [raw(schema.description)] : []),
          ...(schema.properties ? [table(['Name', 'Type', 'Required', 'Description'], schema.properties.map((p) => [p.name ?? '', typeOf(p), p.required ? message(intl, 'openapiRequired') : '', firstLine(p.description)]))] : [])])),
    ];
  }
  const view = data.openapiView as OperationView | undefined;
  if (!view || 'missing' in view) return undefined;
  return mode === 'markdown' ? markdownOperation(data, view) : readableOperation(data, view, intl);
}

/** mdast printed, then parsed as a page: document blocks (none when the parser refuses it). */
function asBlocks(children: RootContent[]): Node[] {
  const markdown = printer.stringify({ type: 'root', children } as Root);
  try {
    return markdownToDocument(markdown).document.nodes as Node[];
  } catch {
    return [];
  }
}

/**
 * `document` with each OpenAPI block that has a view (or a failure) replaced by what
 * `mode` prints, then the blocks the page wrote inside it. Blocks without one stay as they are.
 */
function openAPIExportBlocks(document: StoredDocument, mode: Mode, options: { fileName: (id: string) => string | undefined; intl?: ReaderIntl }): StoredDocument {
  const intl = options.intl ?? ENGLISH;
  const visit = (nodes: Node[]): Node[] => nodes.flatMap((node) => {
    if (node.object !== 'text' && node.type && BLOCKS.has(node.type)) {
      const printed = replacement(node, mode, options.fileName, intl);
      if (printed) return [...asBlocks(printed), ...visit((node.nodes ?? []).filter((n) => n.object === 'block'))];
    }
    const out: Node = { ...node };
    if (node.nodes) out.nodes = visit(node.nodes);
    if (node.fragments) out.fragments = node.fragments.map((f) => ({ ...f, ...(f.nodes ? { nodes: visit(f.nodes) } : {}) }));
    return [out];
  });
  return { ...document, nodes: visit(document.nodes as Node[]) as StoredDocument['nodes'] };
}

/**
 * A page's document with its OpenAPI blocks as an export prints them (`markdown`: the page's
 * `.md` and llms-full.txt, with each block's spec fragment; `readable`: the PDFs): their views
 * from the stored `specs` and the revision's spec `files` (shared/content/openapi-specs.ts),
 * then openAPIExportBlocks. One sequence for the page's markdown, its PDF and the space's PDF.
 */
export async function exportedOpenAPIBlocks(document: StoredDocument, specs: OpenAPISpecItem[], files: ManifestFile[], mode: Mode, intl?: ReaderIntl): Promise<StoredDocument> {
  const withSpecs = await withOpenAPISpecs(document, specs, files, { fragments: mode === 'markdown' });
  const names = new Map(files.map((f) => [f.id, f.name]));
  return openAPIExportBlocks(withSpecs, mode, { fileName: (id) => names.get(id), intl });
}
