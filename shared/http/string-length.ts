import * as v from 'valibot';

/**
 * Length limits on text a caller writes (titles, names, descriptions, bodies), counted in
 * characters as JSON Schema's maxLength/minLength count them: Unicode code points, not
 * UTF-16 code units (v.maxLength's `.length`, where an emoji counts 2) nor graphemes
 * (v.maxGraphemes, where 👩‍💻 counts 1). The public interface states its limits as JSON
 * Schema, so a title its client sends as 50 characters is 50 characters here too.
 * The OpenAPI description (shared/http/openapi.ts) writes them as maxLength/minLength.
 */

/** JSON Schema keywords of each char-limit action, read by the OpenAPI generator and the hostile-input bounds check. */
const limits = new WeakMap<object, { maxLength?: number; minLength?: number }>();

/** Code points of `s`; a lone surrogate counts one, as in JSON Schema validators. */
export function charCount(s: string): number {
  let n = 0;
  for (const _ of s) n++;
  return n;
}

// A string of L code units holds between L/2 and L code points: most strings are decided without counting.
const atMost = (s: string, max: number) => s.length <= max || (s.length <= 2 * max && charCount(s) <= max);
const atLeast = (s: string, min: number) => s.length >= 2 * min || (s.length >= min && charCount(s) >= min);

/** The first `max` characters (code points) of `s`: a derived title never ends in half an emoji. */
export function sliceChars(s: string, max: number): string {
  return s.length <= max ? s : [...s].slice(0, max).join('');
}

/** At most `max` characters (code points). */
export function maxChars(max: number, message = `must be at most ${max} characters`) {
  const action = v.check<string, string>((s) => atMost(s, max), message);
  limits.set(action, { maxLength: max });
  return action;
}

/** At least `min` characters (code points). */
export function minChars(min: number, message = `must be at least ${min} characters`) {
  const action = v.check<string, string>((s) => atLeast(s, min), message);
  limits.set(action, { minLength: min });
  return action;
}

/** The JSON Schema keywords (maxLength/minLength) of a pipe action made by maxChars/minChars, if it is one. */
export const charLimitOf = (action: unknown): { maxLength?: number; minLength?: number } | undefined =>
  typeof action === 'object' && action !== null ? limits.get(action) : undefined;
