import { randomUUID } from 'node:crypto';
import { SizedLru } from '../sized-lru.ts';

/**
 * Serialized presentations of immutable content, kept in memory as UTF-8 bytes, so a read of
 * a big revision serves stored bytes instead of presenting, serializing and encoding the
 * whole tree again (a 5,000-page space's pages are 3.3 MB of JSON; issue 17). A key must
 * name everything the bytes depend on (the manifest hash, the space, the options, the base
 * URL): the entries are then never stale, only evicted. LRU, bounded by total bytes.
 */
export class PresentedJsonCache {
  private readonly entries: SizedLru<Buffer>;

  constructor(maxBytes: number) {
    this.entries = new SizedLru(maxBytes);
  }

  /** The cached JSON bytes of `key`, or `present()` serialized and remembered. */
  get(key: string, present: () => unknown): Buffer {
    const hit = this.entries.get(key);
    if (hit !== undefined) return hit;
    const bytes = Buffer.from(JSON.stringify(present()));
    this.entries.set(key, bytes, bytes.length);
    return bytes;
  }
}

/** Unguessable, so no stored text can collide with it. */
const MARKER = `\u0000${randomUUID()}\u0000`;

/**
 * The JSON bytes of `value` whose `field` is `fieldJson` (already serialized): the rest of
 * `value` is serialized as usual and the stored bytes are spliced in, never parsed again.
 */
export function jsonWithSerializedField(value: Record<string, unknown>, field: string, fieldJson: Buffer): Buffer {
  const text = JSON.stringify({ ...value, [field]: `${MARKER}${field}` });
  const quoted = JSON.stringify(`${MARKER}${field}`);
  const at = text.indexOf(quoted);
  return Buffer.concat([Buffer.from(text.slice(0, at)), fieldJson, Buffer.from(text.slice(at + quoted.length))]);
}
