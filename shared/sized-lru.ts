/**
 * A least-recently-used map bounded by the total size of its entries (each entry's size as
 * its caller reckons it: bytes, or an estimate of heap). Reading an entry makes it the newest;
 * storing one forgets the least recently used until the total is within the bound again —
 * never the entry just stored, even when it alone exceeds the bound.
 */
export class SizedLru<V> {
  private readonly entries = new Map<string, { value: V; size: number }>();
  private total = 0;

  private readonly maxSize: number;

  constructor(maxSize: number) {
    this.maxSize = maxSize;
  }

  get(key: string): V | undefined {
    const hit = this.entries.get(key);
    if (!hit) return undefined;
    this.entries.delete(key);
    this.entries.set(key, hit);
    return hit.value;
  }

  set(key: string, value: V, size: number): void {
    const previous = this.entries.get(key);
    if (previous) {
      this.entries.delete(key);
      this.total -= previous.size;
    }
    this.entries.set(key, { value, size });
    this.total += size;
    for (const [oldest, entry] of this.entries) {
      if (this.total <= this.maxSize || oldest === key) break;
      this.entries.delete(oldest);
      this.total -= entry.size;
    }
  }
}
