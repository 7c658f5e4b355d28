import { randomUUID } from 'node:crypto';

/**
 * Serialized presentations of immutable content, kept in memory as UTF-8 bytes, so a read of
 * a big revision serves stored bytes instead of presenting, serializing and encoding the
 * whole tree again (a 5,000-page space's pages are 3.3 MB of JSON; issue 17). A key must
 * name everything the bytes depend on (the manifest hash, the space, the options, the base
 * URL): the entries are then never stale, only evicted. LRU, bounded by total bytes.
 */
export class PresentedJsonCache {
  private readonly entries = new Map<string, Buffer>();
  private size = 0;

  constructor(private readonly maxBytes: number) {}

  /** The cached JSON bytes of `key`, or `present()` serialized and remembered. */
  get(key: string, present: () => unknown): Buffer {
    const hit = this.entries.get(key);
    if (hit !== undefined) {
      this.entries.delete(key);
      this.entries.set(key, hit);
      return hit;
    }
    const bytes = Buffer.from(JSON.stringify(present()));
    this.entries.set(key, bytes);
    this.size += bytes.length;
    // Least recently used first; the newest entry stays even when it alone exceeds the budget.
    for (const [k, v] of this.entries) {
      if (this.size <= this.maxBytes || k === key) break;
      this.entries.delete(k);
      this.size -= v.length;
    }
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
