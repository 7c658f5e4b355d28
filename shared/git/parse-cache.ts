/**
 * What a git worker instance parsed lately, by git blob id: a blob id names its content, so a
 * re-import of a repository (a Lambda instance kept warm, syncing the next commit) parses only
 * the files that changed. Parse failures are not kept: a page over a limit fails again.
 *
 * Entries are kept as JSON text, and each hit parses a copy of its own:
 * - no caller can change what another import will read;
 * - a kept string is one flat object that the garbage collector copies without tracing. Kept
 *   object trees made every scavenge copy every cached document's objects: 1,000 new pages
 *   took 300-400 ms to parse, against ~150 ms as text (140 ms with no cache; bench/README.md,
 *   issue 17).
 * JSON is also what the import stores of a document, so a copy holds what storage would.
 * Bounded by the text's size in memory (two bytes per character at most).
 */
import { parseMarkdown, type ParsedMarkdown } from '../content/markdown/parse-pool.ts';
import { SizedLru } from '../sized-lru.ts';

const LIMIT_BYTES = 32 * 1024 * 1024;
const entries = new SizedLru<string>(LIMIT_BYTES);

function remember(key: string, value: unknown): void {
  const json = JSON.stringify(value);
  const size = json.length * 2 + 64;
  if (size > LIMIT_BYTES / 4) return;
  entries.set(key, json, size);
}

function recall<T>(key: string): T | undefined {
  const json = entries.get(key);
  return json === undefined ? undefined : (JSON.parse(json) as T);
}

/** parseMarkdown of the blob `oid` (whose text is `markdown`), from the cache when it was parsed lately. */
export async function parseMarkdownBlob(oid: string, markdown: string): Promise<ParsedMarkdown> {
  const key = `markdown:${oid}`;
  const hit = recall<ParsedMarkdown>(key);
  if (hit) return hit;
  const parsed = await parseMarkdown(markdown);
  remember(key, parsed);
  return parsed;
}

/** `parse(text)` of the blob `oid`, kept under `kind` (another parser of the same blob is another entry). */
export function parsedBlob<T>(kind: string, oid: string, text: string, parse: (text: string) => T): T {
  const key = `${kind}:${oid}`;
  const hit = recall<T>(key);
  if (hit !== undefined) return hit;
  const value = parse(text);
  remember(key, value);
  return value;
}
