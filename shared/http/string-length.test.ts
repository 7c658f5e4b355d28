import { describe, expect, it } from 'vitest';
import * as v from 'valibot';
import { charCount, charLimitOf, maxChars, minChars, sliceChars } from './string-length.ts';

/** Every string of up to `units` UTF-16 units over a few shapes: ASCII, astral, joined emoji, lone surrogates. */
const shapes = (units: number): string[] => {
  const pieces = ['a', '😀', '👩‍💻', '\uD800', '\uDC00', 'é'];
  const out: string[] = [];
  for (let n = 0; n <= units; n++) for (const p of pieces) for (const q of pieces) out.push((p + q).repeat(n).slice(0, n));
  return out;
};

describe('maxChars / minChars count code points, as JSON Schema maxLength/minLength do', () => {
  it('charCount: an astral character is one, a joined emoji its code points, a lone surrogate one', () => {
    expect(charCount('😀')).toBe(1);
    expect(charCount('👩‍💻')).toBe(3);
    expect(charCount('\uD800x')).toBe(2);
    expect(charCount('')).toBe(0);
  });

  it('the shortcuts on UTF-16 length agree with counting, on both sides of every limit', () => {
    for (const limit of [0, 1, 2, 3, 5]) {
      const max = v.pipe(v.string(), maxChars(limit));
      const min = v.pipe(v.string(), minChars(limit));
      for (const s of shapes(2 * limit + 3)) {
        expect(v.safeParse(max, s).success, `${JSON.stringify(s)} max ${limit}`).toBe([...s].length <= limit);
        expect(v.safeParse(min, s).success, `${JSON.stringify(s)} min ${limit}`).toBe([...s].length >= limit);
      }
    }
  });

  it('sliceChars keeps whole code points', () => {
    expect(sliceChars('a😀😀', 2)).toBe('a😀');
    expect(sliceChars('abc', 5)).toBe('abc');
    expect(sliceChars('😀'.repeat(30), 25)).toBe('😀'.repeat(25));
  });

  it('messages default to "must be at most/least n characters"; the actions are known as limits', () => {
    const result = v.safeParse(v.pipe(v.string(), maxChars(1)), '😀😀');
    expect(result.issues?.[0]?.message).toBe('must be at most 1 characters');
    expect(v.safeParse(v.pipe(v.string(), minChars(2)), '😀').issues?.[0]?.message).toBe('must be at least 2 characters');
    expect(charLimitOf(maxChars(7))).toEqual({ maxLength: 7 });
    expect(charLimitOf(minChars(2))).toEqual({ minLength: 2 });
    expect(charLimitOf(v.maxLength(7))).toBeUndefined();
  });
});
