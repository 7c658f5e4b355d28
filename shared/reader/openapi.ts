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
import { message, messageParts, type MessageKey, type ReaderIntl } from './messages.ts';

/**
 * An operation of a stored OpenAPI spec as a reader sees it (the view built by
 * shared/content/openapi-operation.ts): servers, security, parameters, request body and
 * responses with their schemas and examples. Descriptions are CommonMark; the HTML in them goes
 * through the reader's sanitizer (shared/reader/sanitize.ts) one description at a time, and
 * the page body is sanitized again as a whole like everything the reader emits. The labels are
 * the reader's own words in the site's locale (shared/reader/messages.ts).
 */

/** A label in the site's locale, its `{name}` values text or nodes. */
const say = (intl: ReaderIntl, key: MessageKey, values: Record<string, string> = {}) => message(intl, key, values);
const sayWith = (intl: ReaderIntl, key: MessageKey, values: Record<string, ElementContent | ElementContent[]>): ElementContent[] =>
  messageParts<ElementContent | ElementContent[]>(intl, key, values).flatMap((part) => (typeof part === 'string' ? [{ type: 'text', value: part } as const] : part));

/** A description's CommonMark, its HTML sanitized on its own (an unclosed tag stays inside it). */
function markdown(text: string | undefined): ElementContent[] {
  if (!text) return [];
  const tree = fromMarkdown(text, { extensions: [gfmAutolinkLiteral(), gfmStrikethrough(), gfmTable()], mdastExtensions: [gfmFromMarkdown()] });
  const hast = toHast(tree, { allowDangerousHtml: true });
  return sanitizeNodes(hast.type === 'root' ? hast.children : [hast]);
}

const description = (text: string | undefined) => (text ? [h('div.openapi-description', markdown(text))] : []);

function schemaTree(schema: SchemaView, intl: ReaderIntl): ElementContent[] {
  const facts: ElementContent[] = [
    ...(schema.enum ? [h('p.openapi-enum', sayWith(intl, 'openapiOneOfValues', { values: schema.enum.flatMap((e, i): ElementContent[] => [...(i > 0 ? [{ type: 'text', value: ', ' } as const] : []), h('code', e)]) }))] : []),
    ...(schema.default !== undefined ? [h('p', sayWith(intl, 'openapiDefault', { value: h('code', schema.default) }))] : []),
    ...(schema.example !== undefined && !schema.properties ? [h('p', sayWith(intl, 'openapiExampleValue', { value: h('code', schema.example) }))] : []),
  ];
  const children: ElementContent[] = [
    ...(schema.properties ? [h('ul.openapi-schema', schema.properties.map((p) => property(p, intl)))] : []),
    ...(schema.items ? [h('div.openapi-schema', [h('p', sayWith(intl, 'openapiItems', { type: h('code', schema.items.type ?? 'any') })), ...description(schema.items.description), ...schemaTree(schema.items, intl)])] : []),
    ...(schema.variants ? [h('div.openapi-schema', [
      h('p', say(intl, schema.variants.kind === 'oneOf' ? 'openapiOneOf' : 'openapiAnyOf')),
      h('ol', schema.variants.options.map((o) => h('li', [h('code', o.type ?? 'any'), ...description(o.description), ...schemaTree(o, intl)]))),
    ])] : []),
  ];
  return [...facts, ...children];
}

function property(schema: SchemaView, intl: ReaderIntl): ElementContent {
  return h('li', [
    h('p', [
      h('code', schema.name ?? ''), ' ', h('span.openapi-type', schema.type ?? 'any'),
      ...(schema.required ? [' ', h('strong.openapi-required', say(intl, 'openapiRequired'))] : []),
      ...(schema.deprecated ? [' ', h('span.openapi-deprecated', say(intl, 'openapiDeprecatedMark'))] : []),
      ...(schema.circular ? [' ', h('span.openapi-type', say(intl, 'openapiCircular', { name: schema.circular }))] : []),
      ...(schema.external ? [' ', h('span.openapi-type', sayWith(intl, 'openapiExternal', { ref: h('code', schema.external) }))] : []),
    ]),
    ...description(schema.description),
    ...schemaTree(schema, intl),
  ]);
}

function content(c: ContentView, intl: ReaderIntl): ElementContent[] {
  return [
    h('p', h('code', c.mediaType)),
    ...(c.schema ? [...(c.schema.type && !c.schema.properties ? [h('p', h('span.openapi-type', c.schema.type))] : []), ...description(c.schema.description), ...schemaTree(c.schema, intl)] : []),
    ...(c.example !== undefined ? [h('details.openapi-example', [h('summary', say(intl, 'openapiExample')), h('pre', h('code', c.example))])] : []),
  ];
}

const section = (title: string, body: ElementContent[]) => h('div.openapi-section', [h('h4', title), ...body]);

export function operationBody(view: OperationView, intl: ReaderIntl): ElementContent[] {
  const out: ElementContent[] = [];
  if (view.deprecated) out.push(h('p.openapi-deprecated', say(intl, 'openapiDeprecated')));
  out.push(...description(view.description));
  if (view.servers.length > 0) out.push(h('p.openapi-server', view.servers.map((s, i) => [...(i > 0 ? [h('br')] : []), h('code', `${view.method} ${s.replace(/\/$/, '')}${view.path}`)]).flat()));
  if (view.security.length > 0) out.push(section(say(intl, 'openapiAuthorization'), [h('ul', view.security.map((s) => h('li', s)))]));
  if (view.parameters.length > 0) {
    out.push(section(say(intl, 'openapiParameters'), [h('ul.openapi-schema', view.parameters.map((p) => h('li.openapi-parameter', [
      h('p', [
        h('code', p.name), ' ', h('span.openapi-type', [p.in, p.schema?.type].filter(Boolean).join(' · ')),
        ...(p.required ? [' ', h('strong.openapi-required', say(intl, 'openapiRequired'))] : []),
        ...(p.deprecated ? [' ', h('span.openapi-deprecated', say(intl, 'openapiDeprecatedMark'))] : []),
      ]),
      ...description(p.description ?? p.schema?.description),
      ...(p.schema ? schemaTree(p.schema, intl) : []),
    ])))]));
  }
  if (view.requestBody) {
    const rb = view.requestBody;
    out.push(section(say(intl, 'openapiRequestBody'), [
      ...(rb.required ? [h('p', h('strong.openapi-required', say(intl, 'openapiRequired')))] : []),
      ...description(rb.description),
      ...rb.contents.flatMap((c) => content(c, intl)),
    ]));
  }
  if (view.responses.length > 0) {
    out.push(section(say(intl, 'openapiResponses'), view.responses.map((r) => h('div.openapi-response', [
      h('p', [h('strong', r.status), ...(r.description ? [' '] : [])]),
      ...description(r.description),
      ...r.contents.flatMap((c) => content(c, intl)),
    ]))));
  }
  return out;
}

/** An `openapi-schemas` block: each named schema under its title ("The Pet object" by default, as GitBook titles them). */
export function schemasBody(list: { name: string; schema: SchemaView }[], title: string | undefined, intl: ReaderIntl): ElementContent[] {
  return list.map(({ name, schema }) => h('div.openapi-section', [
    h('h4', title || say(intl, 'openapiObject', { name })),
    ...(schema.type && !schema.properties ? [h('p', h('span.openapi-type', schema.type))] : []),
    ...description(schema.description),
    ...schemaTree(schema, intl),
  ]));
}
