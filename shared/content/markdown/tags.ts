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
