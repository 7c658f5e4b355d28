import { describe, expect, it } from 'vitest';
import { isGeneratedId, randomId } from './ids.ts';

describe('randomId', () => {
  it('never hands out the same bytes twice, across many refills of its pool', () => {
    // ~200 ids use one 4 KB fill: 5,000 ids cross 25 refills.
    const ids = Array.from({ length: 5000 }, () => randomId());
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.every(isGeneratedId)).toBe(true);
  });

  it('gives any length asked for, from the base62 alphabet', () => {
    for (const length of [1, 8, 63, 300, 5000]) {
      const id = randomId(length);
      expect(id).toHaveLength(length);
      expect(id).toMatch(/^[0-9A-Za-z]+$/);
    }
  });

  it('draws every character evenly (chi-square over 200,000 characters)', () => {
    const counts = new Map<string, number>();
    for (const char of randomId(200_000)) counts.set(char, (counts.get(char) ?? 0) + 1);
    expect(counts.size).toBe(62);
    const expected = 200_000 / 62;
    const chiSquare = [...counts.values()].reduce((sum, n) => sum + (n - expected) ** 2 / expected, 0);
    // 61 degrees of freedom: above 120 happens by chance about once in 100,000 runs. A modulo
    // bias (bytes 248-255 not rejected) gives about 1,400 (1,318 expected, plus the 61 of chance).
    expect(chiSquare).toBeLessThan(120);
  });
});
