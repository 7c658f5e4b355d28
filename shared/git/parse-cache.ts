/**
 * What a git worker instance parsed lately, by git blob id: a blob id names its content, so a
 * re-import of a repository (a Lambda instance kept warm, syncing the next commit) parses only
 * the files that changed. Values are frozen: imports share them and only read them (ids are
 * resolved into copies: pages.ts). Parse failures are not kept: a page over a limit fails again.
 * Bounded by an estimate of the parsed size (about 24 bytes of heap per byte of markdown).
 */
import { parseMarkdown, type ParsedMarkdown } from '../content/markdown/parse-pool.ts';

const LIMIT_BYTES = 32 * 1024 * 1024;

interface Entry { value: unknown; size: number }
const entries = new Map<string, Entry>();
let totalBytes = 0;

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}

function remember(key: string, value: unknown, textLength: number): void {
  const size = textLength * 24 + 1024;
  if (size > LIMIT_BYTES / 4) return;
  entries.set(key, { value: deepFreeze(value), size });
  totalBytes += size;
  for (const [oldest, entry] of entries) {
    if (totalBytes <= LIMIT_BYTES) break;
    entries.delete(oldest);
    totalBytes -= entry.size;
  }
}

function recall<T>(key: string): T | undefined {
  const hit = entries.get(key);
  if (!hit) return undefined;
  entries.delete(key);
  entries.set(key, hit);
  return hit.value as T;
}

/** parseMarkdown of the blob `oid` (whose text is `markdown`), from the cache when it was parsed lately. */
export async function parseMarkdownBlob(oid: string, markdown: string): Promise<ParsedMarkdown> {
  const key = `markdown:${oid}`;
  const hit = recall<ParsedMarkdown>(key);
  if (hit) return hit;
  const parsed = await parseMarkdown(markdown);
  remember(key, parsed, markdown.length);
  return parsed;
}

/** `parse(text)` of the blob `oid`, kept under `kind` (another parser of the same blob is another entry). */
export function parsedBlob<T>(kind: string, oid: string, text: string, parse: (text: string) => T): T {
  const key = `${kind}:${oid}`;
  const hit = recall<T>(key);
  if (hit !== undefined) return hit;
  const value = parse(text);
  remember(key, value, text.length);
  return value;
}
