/**
 * GitBook tags that map one to one onto a document block: the tag's attributes become the
 * block's data, its body the block's nodes, and back. One table for parsing (from-tags.ts)
 * and printing (to-mdast.ts). Block types follow GitBook's public document where it has
 * them (`swagger` for `{% swagger %}` and `{% openapi %}`, `openapi-operation`, `updates` >
 * `update`, `prompt`, `columns` > `column`, `if`); the parts of a swagger block
 * (`swagger-description`, `swagger-parameter`, `swagger-response`) are kept as child blocks.
 */
import { fileRefFromSource, targetOf } from './refs.ts';

export interface TagBlock {
  tag: string;
  type: string;
  /** The attribute that names what the block shows: a spec file or URL, or a stored OpenAPI spec (by slug). */
  ref?: { attr: string; kind: 'source' | 'openapi' };
  /** The tag holds an expression, not attributes (`{% if visitor.claims.beta %}`). */
  expression?: boolean;
  /** Data telling tags of one block type apart (`{% openapi %}` is a swagger block too). */
  marker?: Record<string, string>;
  /** Printed without an end tag when it has no body. */
  optionalEnd?: boolean;
}

const spec = { attr: 'spec', kind: 'openapi' } as const;
const source = { attr: 'src', kind: 'source' } as const;

export const TAG_BLOCKS: TagBlock[] = [
  { tag: 'swagger', type: 'swagger', ref: source },
  { tag: 'openapi', type: 'swagger', ref: source, marker: { tag: 'openapi' } },
  { tag: 'swagger-description', type: 'swagger-description' },
  { tag: 'swagger-parameter', type: 'swagger-parameter' },
  { tag: 'swagger-response', type: 'swagger-response' },
  { tag: 'openapi-operation', type: 'openapi-operation', ref: spec, optionalEnd: true },
  { tag: 'openapi-schemas', type: 'openapi-schemas', ref: spec, optionalEnd: true },
  { tag: 'openapi-webhook', type: 'openapi-webhook', ref: spec, optionalEnd: true },
  { tag: 'updates', type: 'updates' },
  { tag: 'update', type: 'update' },
  { tag: 'prompt', type: 'prompt' },
  { tag: 'columns', type: 'columns' },
  { tag: 'column', type: 'column' },
  { tag: 'if', type: 'if', expression: true },
];

export const tagBlockByTag = new Map(TAG_BLOCKS.map((t) => [t.tag, t]));

/** The tag a block prints as (the one whose marker its data carries), if any. */
export function tagBlockOf(type: string, data: Record<string, unknown>): TagBlock | undefined {
  const candidates = TAG_BLOCKS.filter((t) => t.type === type);
  return candidates.find((t) => t.marker && Object.entries(t.marker).every(([k, v]) => data[k] === v)) ?? candidates.find((t) => !t.marker);
}

/** The ref of a tag's ref attribute. */
export function tagRef(kind: 'source' | 'openapi', value: string): Record<string, unknown> {
  return kind === 'openapi' ? { kind: 'openapi', spec: value } : fileRefFromSource(value);
}

/** The attribute value of a ref (inverse of tagRef). */
export function tagRefValue(ref: unknown): string {
  const r = ref as { kind?: unknown; spec?: unknown } | undefined;
  return r?.kind === 'openapi' ? String(r.spec ?? '') : targetOf(ref);
}
