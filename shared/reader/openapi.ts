import type { ElementContent } from 'hast';
import { h } from 'hastscript';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { gfmFromMarkdown } from 'mdast-util-gfm';
import { toHast } from 'mdast-util-to-hast';
import { gfmAutolinkLiteral } from 'micromark-extension-gfm-autolink-literal';
import { gfmStrikethrough } from 'micromark-extension-gfm-strikethrough';
import { gfmTable } from 'micromark-extension-gfm-table';
import type { ContentView, OperationView, SchemaView } from '../content/openapi-operation.ts';
import { sanitizeNodes } from './sanitize.ts';

/**
 * An operation of a stored OpenAPI spec as a reader sees it (the view built by
 * shared/content/openapi-operation.ts): servers, security, parameters, request body and
 * responses with their schemas and examples. Descriptions are CommonMark; the HTML in them goes
 * through the reader's sanitizer (shared/reader/sanitize.ts) one description at a time, and
 * the page body is sanitized again as a whole like everything the reader emits.
 */

/** A description's CommonMark, its HTML sanitized on its own (an unclosed tag stays inside it). */
function markdown(text: string | undefined): ElementContent[] {
  if (!text) return [];
  const tree = fromMarkdown(text, { extensions: [gfmAutolinkLiteral(), gfmStrikethrough(), gfmTable()], mdastExtensions: [gfmFromMarkdown()] });
  const hast = toHast(tree, { allowDangerousHtml: true });
  return sanitizeNodes(hast.type === 'root' ? hast.children : [hast]);
}

const description = (text: string | undefined) => (text ? [h('div.openapi-description', markdown(text))] : []);

function schemaTree(schema: SchemaView): ElementContent[] {
  const facts: ElementContent[] = [
    ...(schema.enum ? [h('p.openapi-enum', ['One of: ', ...schema.enum.flatMap((e, i) => [...(i > 0 ? [', '] : []), h('code', e)])])] : []),
    ...(schema.default !== undefined ? [h('p', ['Default: ', h('code', schema.default)])] : []),
    ...(schema.example !== undefined && !schema.properties ? [h('p', ['Example: ', h('code', schema.example)])] : []),
  ];
  const children: ElementContent[] = [
    ...(schema.properties ? [h('ul.openapi-schema', schema.properties.map(property))] : []),
    ...(schema.items ? [h('div.openapi-schema', [h('p', ['Items: ', h('code', schema.items.type ?? 'any')]), ...description(schema.items.description), ...schemaTree(schema.items)])] : []),
    ...(schema.variants ? [h('div.openapi-schema', [
      h('p', schema.variants.kind === 'oneOf' ? 'One of these:' : 'Any of these:'),
      h('ol', schema.variants.options.map((o) => h('li', [h('code', o.type ?? 'any'), ...description(o.description), ...schemaTree(o)]))),
    ])] : []),
  ];
  return [...facts, ...children];
}

function property(schema: SchemaView): ElementContent {
  return h('li', [
    h('p', [
      h('code', schema.name ?? ''), ' ', h('span.openapi-type', schema.type ?? 'any'),
      ...(schema.required ? [' ', h('strong.openapi-required', 'required')] : []),
      ...(schema.deprecated ? [' ', h('span.openapi-deprecated', 'deprecated')] : []),
      ...(schema.circular ? [' ', h('span.openapi-type', `(${schema.circular}, shown above)`)] : []),
      ...(schema.external ? [' ', h('span.openapi-type', ['(defined in ', h('code', schema.external), ')'])] : []),
    ]),
    ...description(schema.description),
    ...schemaTree(schema),
  ]);
}

function content(c: ContentView): ElementContent[] {
  return [
    h('p', h('code', c.mediaType)),
    ...(c.schema ? [...(c.schema.type && !c.schema.properties ? [h('p', h('span.openapi-type', c.schema.type))] : []), ...description(c.schema.description), ...schemaTree(c.schema)] : []),
    ...(c.example !== undefined ? [h('details.openapi-example', [h('summary', 'Example'), h('pre', h('code', c.example))])] : []),
  ];
}

const section = (title: string, body: ElementContent[]) => h('div.openapi-section', [h('h4', title), ...body]);

export function operationBody(view: OperationView): ElementContent[] {
  const out: ElementContent[] = [];
  if (view.deprecated) out.push(h('p.openapi-deprecated', 'Deprecated'));
  out.push(...description(view.description));
  if (view.servers.length > 0) out.push(h('p.openapi-server', view.servers.map((s, i) => [...(i > 0 ? [h('br')] : []), h('code', `${view.method} ${s.replace(/\/$/, '')}${view.path}`)]).flat()));
  if (view.security.length > 0) out.push(section('Authorization', [h('ul', view.security.map((s) => h('li', s)))]));
  if (view.parameters.length > 0) {
    out.push(section('Parameters', [h('ul.openapi-schema', view.parameters.map((p) => h('li.openapi-parameter', [
      h('p', [
        h('code', p.name), ' ', h('span.openapi-type', [p.in, p.schema?.type].filter(Boolean).join(' · ')),
        ...(p.required ? [' ', h('strong.openapi-required', 'required')] : []),
        ...(p.deprecated ? [' ', h('span.openapi-deprecated', 'deprecated')] : []),
      ]),
      ...description(p.description ?? p.schema?.description),
      ...(p.schema ? schemaTree(p.schema) : []),
    ])))]));
  }
  if (view.requestBody) {
    const rb = view.requestBody;
    out.push(section('Request body', [
      ...(rb.required ? [h('p', h('strong.openapi-required', 'required'))] : []),
      ...description(rb.description),
      ...rb.contents.flatMap(content),
    ]));
  }
  if (view.responses.length > 0) {
    out.push(section('Responses', view.responses.map((r) => h('div.openapi-response', [
      h('p', [h('strong', r.status), ...(r.description ? [' '] : [])]),
      ...description(r.description),
      ...r.contents.flatMap(content),
    ]))));
  }
  return out;
}

/** An `openapi-schemas` block: each named schema under its title ("The Pet object" by default, as GitBook titles them). */
export function schemasBody(list: { name: string; schema: SchemaView }[], title: string | undefined): ElementContent[] {
  return list.map(({ name, schema }) => h('div.openapi-section', [
    h('h4', title || `The ${name} object`),
    ...(schema.type && !schema.properties ? [h('p', h('span.openapi-type', schema.type))] : []),
    ...description(schema.description),
    ...schemaTree(schema),
  ]));
}
