import { randomUUID } from 'node:crypto';
import { SizedLru } from '../sized-lru.ts';
import type { KeptBytes } from '../http/compress-answers.ts';

/** A whole answer: its bytes (and their gzip once asked for: not counted in the cache's bound), and where the cached field's JSON sits in them. */
export interface Answer extends KeptBytes {
  /** The JSON text before and after the field's value: the rest of the answer as last served. */
  head: string;
  tail: string;
  /** Byte offsets of the field's value in `bytes`. */
  start: number;
  end: number;
}

/**
 * Serialized presentations of immutable content, kept in memory as whole JSON answers, so a
 * read of a big revision serves stored bytes instead of presenting, serializing and encoding
 * the whole tree again (a 5,000-page space's pages are 3.3 MB of JSON; issue 17). A key must
 * name everything the field's bytes depend on (the manifest hash, the space, the options, the
 * base URL): the entries are then never stale, only evicted. LRU, bounded by total bytes.
 *
 * The answer around the field (the revision's other fields) is small and serialized per
 * request; while it serializes to the same text, the same bytes are served again. Composing
 * a fresh 3.3 MB buffer per request cost more in garbage collection than in copying: each
 * such buffer is external memory, and V8 answered the pressure with a full mark-compact
 * every few requests (34 ms per GET against 12 ms when the bytes are reused, bench:content).
 */
export class PresentedJsonCache {
  private readonly entries: SizedLru<Answer>;

  constructor(maxBytes: number) {
    this.entries = new SizedLru(maxBytes);
  }

  /**
   * The JSON bytes of `value` with `field` set to the presentation cached under `key`
   * (`present()` serialized on a miss). `key` must also tell apart answers of different
   * shapes around the same field, or they take turns rebuilding one entry.
   */
  answer(key: string, value: Record<string, unknown>, field: string, present: () => unknown): Answer {
    const [head, tail] = splitAround(value, field);
    const hit = this.entries.get(key);
    if (hit && hit.head === head && hit.tail === tail) return hit;
    const fieldJson = hit ? hit.bytes.subarray(hit.start, hit.end) : Buffer.from(JSON.stringify(present()));
    const headBytes = Buffer.from(head);
    const bytes = Buffer.concat([headBytes, fieldJson, Buffer.from(tail)]);
    const start = headBytes.length;
    const answer: Answer = { bytes, head, tail, start, end: start + fieldJson.length };
    this.entries.set(key, answer, bytes.length);
    return answer;
  }
}

/** Unguessable, so no stored text can collide with it. */
const MARKER = `\u0000${randomUUID()}\u0000`;

/** The JSON text of `value` before and after the value of `field` (in its place when `value` has it, else last). */
function splitAround(value: Record<string, unknown>, field: string): [string, string] {
  const text = JSON.stringify({ ...value, [field]: `${MARKER}${field}` });
  const quoted = JSON.stringify(`${MARKER}${field}`);
  const at = text.indexOf(quoted);
  return [text.slice(0, at), text.slice(at + quoted.length)];
}
