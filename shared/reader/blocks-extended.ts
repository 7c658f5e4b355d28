import type { ElementContent } from 'hast';
import { h } from 'hastscript';
import type { ReaderNode, RenderContext } from './document.ts';
import { anchorOf } from './html.ts';
import { evaluateCondition, visitorContext } from './conditions.ts';
import { operationBody, schemasBody } from './openapi.ts';
import type { OperationView } from '../content/openapi-operation.ts';
import { ENGLISH } from './messages.ts';
import { openAPINotice, specLabel } from './openapi-export.ts';

/** What a block renderer outside document.ts may call back into. */
export interface ExtendedRenderHelpers {
  ctx: RenderContext;
  /** Renders child blocks (includes, nesting depth and ids handled by document.ts). */
  blocks(nodes?: ReaderNode[]): ElementContent[];
  /** Renders inline nodes (text with marks, links, inline images). */
  inlines(nodes?: ReaderNode[]): ElementContent[];
  /** An image of a block's data (`ref`, `alt`), as document.ts renders images. */
  image(data: Record<string, unknown>): ElementContent;
  /** Where a content ref (page, anchor, file, url) points. */
  href(ref: unknown): string;
}

type Fragmented = ReaderNode & { fragments?: { fragment?: string; nodes?: ReaderNode[] }[] };

const fragment = (node: ReaderNode, name: string): ReaderNode[] =>
  (node as Fragmented).fragments?.find((f) => f.fragment === name)?.nodes ?? [];

const str = (value: unknown) => (typeof value === 'string' ? value : '');

function textOf(node: ReaderNode): string {
  if (node.object === 'text') return (node.leaves ?? []).map((l) => l.text).join('');
  return (node.nodes ?? []).map(textOf).join('');
}

/** Headings 4 to 6 sit one level below the others (heading-1 renders as h2), capped at h6. */
function deepHeading(node: ReaderNode, level: number, { ctx, inlines }: ExtendedRenderHelpers): ElementContent {
  let id = str(node.data?.id) || anchorOf(textOf(node));
  while (ctx.ids.anchors.has(id)) id = `${id}-${ctx.ids.next++}`;
  ctx.ids.anchors.add(id);
  return h(`h${Math.min(level + 1, 6)}`, { id }, [h('a.anchor', { href: `#${id}` }, '#'), ...inlines(node.nodes)]);
}

/**
 * An OpenAPI operation: its method and path, the operation from the stored spec or the space's
 * spec file when the block names one (`data.openapiView`, shared/content/openapi-specs.ts), or
 * why that file could not be read (`data.openapiFailure`), then what the page wrote about it.
 */
function operation(node: ReaderNode, helpers: ExtendedRenderHelpers): ElementContent[] {
  const data = node.data ?? {};
  const view = data.openapiView as OperationView | { missing: true } | undefined;
  const found = view && !('missing' in view) ? view : undefined;
  // The spec's name: a stored spec's slug, or the file's name (as written when it is not in the space).
  const spec = specLabel(data, (id) => helpers.ctx.files.get(id)?.name);
  const method = str(data.method).toUpperCase();
  const summary = str(data.summary) || found?.summary;
  const head = [
    ...(method ? [h('span.openapi-method', method)] : []),
    ...(str(data.path || data.name) ? [h('code.openapi-path', str(data.path || data.name))] : []),
    ...(summary ? [h('span.openapi-summary', summary)] : []),
    ...(spec ? [h('span.openapi-spec', spec)] : []),
  ].flatMap((part, i) => (i > 0 ? [' ', part] : [part]));
  const intl = helpers.ctx.intl ?? ENGLISH;
  // The sentence for a block without its operation is the exports' too (shared/reader/openapi-export.ts).
  const notice = found ? undefined : openAPINotice(data, (id) => helpers.ctx.files.get(id)?.name, intl);
  const fromSpec = found ? operationBody(found, intl) : notice ? [h('p.openapi-missing', notice)] : [];
  return [h('div.openapi', [h('p.openapi-operation', head), ...fromSpec, ...helpers.blocks(node.nodes)])];
}

/**
 * Renders the block types document.ts does not know itself (content-model blocks added
 * after the reader's core set). Undefined means "not mine": document.ts renders the
 * children as a plain container.
 */
export function renderExtendedBlock(node: ReaderNode, helpers: ExtendedRenderHelpers): ElementContent[] | undefined {
  const data = node.data ?? {};
  const { blocks, inlines } = helpers;
  switch (node.type) {
    case 'heading-4':
    case 'heading-5':
    case 'heading-6':
      return [deepHeading(node, Number(node.type.slice(-1)), helpers)];
    case 'expandable': {
      const title = fragment(node, 'expandable-title')[0];
      // A plain `<details>`, as authors write it in raw HTML: the browser gives it its behaviour.
      return [h('details', { open: data.defaultExpanded === true }, [h('summary', inlines(title?.nodes)), ...blocks(fragment(node, 'expandable-body'))])];
    }
    case 'columns':
      return [h('div.columns', (node.nodes ?? []).map((column) => h('div.column', blocks(column.nodes))))];
    case 'updates':
      return [h('div.updates', blocks(node.nodes))];
    case 'update':
      return [h('article.update', [h('p.update-date', h('time', { dateTime: str(data.date) }, str(data.date))), ...blocks(node.nodes)])];
    case 'prompt':
      return [h('div.prompt', [...(str(data.description) ? [h('p.prompt-description', str(data.description))] : []), ...blocks(node.nodes)])];
    case 'openapi-schemas':
      if (Array.isArray(data.openapiSchemas)) return [h('div.openapi', [...schemasBody(data.openapiSchemas, str(data.title) || undefined, helpers.ctx.intl ?? ENGLISH), ...blocks(node.nodes)])];
      return operation(node, helpers);
    case 'swagger':
    case 'openapi-operation':
    case 'openapi-webhook':
      return operation(node, helpers);
    case 'swagger-description':
      return [h('div.openapi-description', blocks(node.nodes))];
    case 'swagger-parameter':
      return [h('div.openapi-parameter', [h('p', [h('code', str(data.name)), ` (${[str(data.in), str(data.type), data.required === 'true' ? 'required' : ''].filter(Boolean).join(', ')})`]), ...blocks(node.nodes)])];
    case 'swagger-response':
      return [h('div.openapi-response', [h('p', [h('strong', str(data.status)), str(data.description) ? ` ${str(data.description)}` : '']), ...blocks(node.nodes)])];
    case 'if':
      // Against the visitor's claims (shared/reader/adaptive.ts); without any, content behind
      // a condition stays hidden unless it holds without claims (fail closed).
      return evaluateCondition(str(data.expression), helpers.ctx.visitor ?? visitorContext({})) ? blocks(node.nodes) : [];
    default:
      return undefined;
  }
}
