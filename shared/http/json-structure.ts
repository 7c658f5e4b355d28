import { badRequest } from './errors.ts';
import type { BodyStructureLimits } from './declare.ts';

/**
 * Structural limits of every JSON body, checked before validation and storage.
 * DynamoDB refuses attribute values nested 32 levels deep (a map in a map ... 31 levels is
 * the most it stores, checked against DynamoDB Local); a body is stored at most one level
 * below an item attribute, so 30 levels (the body object is level 1) always fit. Leaves
 * (strings, numbers, booleans, null) do not count as a level.
 */
export const MAX_BODY_DEPTH = 30;
/** Objects, arrays and leaves together: bounds the work of validating and storing a body. */
export const MAX_BODY_VALUES = 100_000;
/** What every operation gets unless its declaration says otherwise (declare.ts `bodyLimits`). */
export const DEFAULT_BODY_LIMITS: BodyStructureLimits = { depth: MAX_BODY_DEPTH, values: MAX_BODY_VALUES };
/** Field names that would reach an object's prototype if code ever merged the body. */
const FORBIDDEN_KEYS = new Set(['__proto__']);

const depthMessage = (limits: BodyStructureLimits) => `body: must be nested at most ${limits.depth} levels deep`;

/**
 * Depth of the JSON text, measured before JSON.parse: parsing a million nested brackets
 * (2 MB) takes V8 over half a second, a linear scan that stops at the limit does not.
 * Only brackets outside strings count; the text is parsed by JSON.parse afterwards.
 */
export function checkJsonDepth(text: string, limits = DEFAULT_BODY_LIMITS): void {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) {
      inString = true;
    } else if (c === 0x7b || c === 0x5b) {
      if (++depth > limits.depth) throw badRequest(depthMessage(limits));
    } else if (c === 0x7d || c === 0x5d) {
      depth--;
    }
  }
}

/**
 * Walks a parsed body without recursion and answers 400 at the first limit it passes,
 * naming the field: too many values, a prototype key, or (if checkJsonDepth was skipped)
 * too deep.
 */
export function checkJsonStructure(body: unknown, limits = DEFAULT_BODY_LIMITS): void {
  const stack: { value: unknown; depth: number; path: string }[] = [{ value: body, depth: 1, path: '' }];
  let values = 1;
  while (stack.length > 0) {
    const { value, depth, path } = stack.pop()!;
    if (typeof value !== 'object' || value === null) continue;
    if (depth > limits.depth) throw badRequest(depthMessage(limits));
    const keys = Object.keys(value);
    values += keys.length;
    if (values > limits.values) throw badRequest(`body: must hold at most ${limits.values} values (objects, arrays and leaves)`);
    for (const key of keys) {
      const childPath = path ? `${path}.${key}` : key;
      if (FORBIDDEN_KEYS.has(key)) throw badRequest(`${childPath}: is not an allowed field`);
      stack.push({ value: (value as Record<string, unknown>)[key], depth: depth + 1, path: childPath });
    }
  }
}
