/**
 * GitBook block tag lines: `{% name key="value" "positional" %}`, parsed and printed.
 * The names below become document blocks; other tag lines (Liquid tags such as
 * `{% else %}`, stray end tags) are kept verbatim as raw lines.
 */

export const TAG_NAMES = [
  'hint', 'tabs', 'tab', 'code', 'content-ref', 'embed', 'file', 'include', 'stepper', 'step',
  'page-ref', 'swagger', 'swagger-description', 'swagger-parameter', 'swagger-response', 'openapi',
  'openapi-operation', 'openapi-schemas', 'openapi-webhook', 'updates', 'update', 'prompt', 'columns', 'column', 'if',
] as const;

export type TagName = (typeof TAG_NAMES)[number];

const ALL_NAMES = new Set<string>([...TAG_NAMES, ...TAG_NAMES.map((name) => `end${name}`)]);

/** A tag this library turns into blocks (as opposed to a raw, preserved tag line). */
export function isTagName(name: string): boolean {
  return ALL_NAMES.has(name);
}

export interface TagLine {
  name: string;
  attrs: Record<string, string>;
  /** Positional (unnamed) quoted values, as in `{% include "path" %}`. */
  args: string[];
  /** Everything after the name, as written (the expression of `{% if %}`). */
  raw: string;
}

const LINE = /^\{%-?\s*([a-z][\w-]*)([\s\S]*?)-?%\}\s*$/;
const ATTR = /([A-Za-z_][\w-]*)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"']+))|"([^"]*)"|'([^']*)'/g;

export function parseTagLine(line: string): TagLine | undefined {
  const match = LINE.exec(line.trim());
  if (!match) return undefined;
  const attrs: Record<string, string> = {};
  const args: string[] = [];
  for (const m of match[2]!.matchAll(ATTR)) {
    if (m[1] !== undefined) attrs[m[1]] = m[2] ?? m[3] ?? m[4] ?? '';
    else args.push(m[5] ?? m[6] ?? '');
  }
  return { name: match[1]!, attrs, args, raw: match[2]!.trim() };
}

/** Double quotes unless the value holds one (GitBook has no escape inside tag values). */
function quote(value: string): string {
  return value.includes('"') && !value.includes("'") ? `'${value}'` : `"${value}"`;
}

export function formatTag(name: string, attrs: Record<string, string> = {}, args: string[] = [], raw?: string): string {
  if (raw !== undefined) return raw ? `{% ${name} ${raw} %}` : `{% ${name} %}`;
  const parts = [name, ...args.map(quote), ...Object.entries(attrs).map(([k, v]) => `${k}=${quote(v)}`)];
  return `{% ${parts.join(' ')} %}`;
}

/** GitBook's integration block tag: `{% @integration/block prop="value" ... %}`. */
export interface IntegrationTag {
  integration: string;
  block: string;
  props: Record<string, string>;
}

const INTEGRATION = /^\{%-?\s*@([A-Za-z0-9_.-]+)\/([A-Za-z0-9_./-]+)([\s\S]*?)-?%\}\s*$/;
/**
 * A prop: `name="value"`, where the value runs to the `"` that ends it: the one before the next
 * ` name=` or the end of the tag. GitBook writes values as they are, quotes and line breaks
 * included (`content="graph TD\n  A["Start"] --> B"`), with no escape.
 */
const PROP = /([A-Za-z_][\w-]*)=(?:"([\s\S]*?)"(?=\s+[A-Za-z_][\w-]*=|\s*$)|'([\s\S]*?)'(?=\s+[A-Za-z_][\w-]*=|\s*$)|([^\s"']+))\s*/y;

/** An integration tag's parts, or undefined when the text is not one. */
export function parseIntegrationTag(text: string): IntegrationTag | undefined {
  const match = INTEGRATION.exec(text.trim());
  if (!match) return undefined;
  const body = match[3]!.trim();
  const props: Record<string, string> = {};
  PROP.lastIndex = 0;
  while (PROP.lastIndex < body.length) {
    const at = PROP.lastIndex;
    const prop = PROP.exec(body);
    // Anything else (a positional value, stray text) is not a tag this library can print back.
    if (!prop || PROP.lastIndex === at) return undefined;
    props[prop[1]!] = prop[2] ?? prop[3] ?? prop[4] ?? '';
  }
  return { integration: match[1]!, block: match[2]!, props };
}

/**
 * The tag of an integration block, values as they are in double quotes, as GitBook writes them
 * (single quotes for a value that would otherwise not read back, e.g. one holding `" x=`).
 */
export function formatIntegrationTag(tag: IntegrationTag): string {
  const print = (quote: (key: string) => string) => {
    const props = Object.keys(tag.props).map((key) => `${key}=${quote(key)}`);
    return `{% @${tag.integration}/${tag.block}${props.length > 0 ? ` ${props.join(' ')}` : ''} %}`;
  };
  const text = (key: string) => {
    const value = tag.props[key] as unknown;
    return typeof value === 'string' ? value : JSON.stringify(value);
  };
  const double = print((key) => `"${text(key)}"`);
  if (readsBack(double, tag)) return double;
  const single = print((key) => (text(key).includes('"') ? `'${text(key)}'` : `"${text(key)}"`));
  return readsBack(single, tag) ? single : double;
}

function readsBack(printed: string, tag: IntegrationTag): boolean {
  const back = parseIntegrationTag(printed);
  return !!back && Object.keys(tag.props).every((key) => back.props[key] === (typeof tag.props[key] === 'string' ? tag.props[key] : JSON.stringify(tag.props[key])));
}
