/**
 * What a git worker instance parsed lately, by git blob id: a blob id names its content, so a
 * re-import of a repository (a Lambda instance kept warm, syncing the next commit) parses only
 * the files that changed. Values are frozen: imports share them and only read them (ids are
 * resolved into copies: pages.ts). Parse failures are not kept: a page over a limit fails again.
 * Bounded by an estimate of the parsed size (about 24 bytes of heap per byte of markdown).
 */
import { parseMarkdown, type ParsedMarkdown } from '../content/markdown/parse-pool.ts';
import { deepFreeze } from '../deep-freeze.ts';
import { SizedLru } from '../sized-lru.ts';

const LIMIT_BYTES = 32 * 1024 * 1024;
const entries = new SizedLru<unknown>(LIMIT_BYTES);

function remember(key: string, value: unknown, textLength: number): void {
  const size = textLength * 24 + 1024;
  if (size > LIMIT_BYTES / 4) return;
  entries.set(key, deepFreeze(value), size);
}

const recall = <T>(key: string): T | undefined => entries.get(key) as T | undefined;

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
