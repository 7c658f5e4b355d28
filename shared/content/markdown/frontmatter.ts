/**
 * YAML frontmatter <-> Frontmatter (description, icon, hidden, layout, cover, ...).
 * Printed with yaml's defaults and no line folding, which is the canonical form.
 */
import YAML from 'yaml';
import type { Frontmatter } from './types.ts';

/** The frontmatter map, or undefined when the block is not a YAML mapping (then it is not frontmatter). */
export function parseFrontmatter(source: string): Frontmatter | undefined {
  if (source.trim() === '') return {};
  let value: unknown;
  try {
    value = YAML.parse(source);
  } catch {
    return undefined;
  }
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as Frontmatter) : undefined;
}

/** The YAML body (without `---` fences), or undefined when there is nothing to write. */
export function printFrontmatter(frontmatter: Frontmatter | undefined): string | undefined {
  const entries = Object.entries(frontmatter ?? {}).filter(([, value]) => value !== undefined);
  if (entries.length === 0) return undefined;
  return YAML.stringify(Object.fromEntries(entries), { lineWidth: 0 }).trimEnd();
}
