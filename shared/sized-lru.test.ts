import { describe, expect, it } from 'vitest';
import { SizedLru } from './sized-lru.ts';

describe('SizedLru', () => {
  it('forgets the least recently used entries once the total size is over the bound; a read makes an entry the newest', () => {
    const lru = new SizedLru<string>(10);
    lru.set('a', 'A', 4);
    lru.set('b', 'B', 4);
    expect(lru.get('a')).toBe('A');
    lru.set('c', 'C', 4);
    expect(lru.get('b')).toBeUndefined();
    expect(lru.get('a')).toBe('A');
    expect(lru.get('c')).toBe('C');
  });

  it('counts a stored key again at its new size only (no drift from replacing an entry)', () => {
    const lru = new SizedLru<string>(10);
    lru.set('a', 'A1', 4);
    lru.set('a', 'A2', 4);
    lru.set('b', 'B', 6);
    expect(lru.get('a')).toBe('A2');
    expect(lru.get('b')).toBe('B');
  });

  it('keeps the entry just stored even when it alone exceeds the bound', () => {
    const lru = new SizedLru<string>(10);
    lru.set('a', 'A', 4);
    lru.set('big', 'BIG', 20);
    expect(lru.get('a')).toBeUndefined();
    expect(lru.get('big')).toBe('BIG');
  });
});
