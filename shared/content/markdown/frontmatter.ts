/**
 * YAML frontmatter <-> Frontmatter (description, icon, hidden, layout, cover, ...).
 * Printed with yaml's defaults and no line folding, which is the canonical form.
 */
import YAML from 'yaml';
import type { Frontmatter } from './types.ts';

/**
 * The frontmatter map; else the block is not frontmatter: YAML that is not a mapping (a page
 * opening with `---` rules around text), or not YAML at all (`error`: YAML's first line).
 */
export function parseFrontmatter(source: string): { frontmatter: Frontmatter } | { error?: string } {
  if (source.trim() === '') return { frontmatter: {} };
  let value: unknown;
  try {
    value = YAML.parse(source);
  } catch (error) {
    return { error: String((error as Error).message).split('\n')[0]!.trim() };
  }
  return value && typeof value === 'object' && !Array.isArray(value) ? { frontmatter: value as Frontmatter } : {};
}

/** The YAML body (without `---` fences), or undefined when there is nothing to write. */
export function printFrontmatter(frontmatter: Frontmatter | undefined): string | undefined {
  const entries = Object.entries(frontmatter ?? {}).filter(([, value]) => value !== undefined);
  if (entries.length === 0) return undefined;
  return YAML.stringify(Object.fromEntries(entries), { lineWidth: 0 }).trimEnd();
}
