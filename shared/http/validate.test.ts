import { describe, expect, it } from 'vitest';
import * as v from 'valibot';
import { issueMessage } from './validate.ts';

/** The first issue of `value` against `schema`, as the service words it for `target`. */
function message(schema: v.GenericSchema, value: unknown, target: 'json' | 'query' | 'param' = 'json'): string {
  const result = v.safeParse(schema, value);
  if (result.success) throw new Error('expected an issue');
  return issueMessage(target, result.issues);
}

describe('issueMessage', () => {
  const entries = { name: v.string('must be a string') };

  it('a missing key is required, for every kind of object schema and request part, with or without the object\'s own message', () => {
    for (const schema of [v.object(entries), v.strictObject(entries), v.looseObject(entries), v.objectWithRest(entries, v.number()), v.strictObject(entries, 'must be a thing')]) {
      for (const target of ['json', 'query', 'param'] as const) expect(message(schema, {}, target)).toBe('name: is required');
      expect(message(v.object({ outer: schema }), { outer: {} })).toBe('outer.name: is required');
    }
    const change = v.variant('kind', [v.strictObject({ kind: v.literal('a'), name: v.string() })], 'must be an a');
    expect(message(v.object({ changes: v.array(change) }), { changes: [{}] })).toBe('changes.0.kind: is required');
    expect(message(v.object({ changes: v.array(change) }), { changes: [{ kind: 'a' }] })).toBe('changes.0.name: is required');
    expect(message(v.object({ changes: v.array(change) }), { changes: [{ kind: 'b' }] })).toBe('changes.0.kind: must be an a');
  });

  it('valibot\'s own wrong-type messages become the service\'s; a schema\'s own message is kept', () => {
    const body = v.strictObject({
      s: v.optional(v.string()), n: v.optional(v.number()), b: v.optional(v.boolean()), a: v.optional(v.array(v.string())),
      o: v.optional(v.object({})), r: v.optional(v.record(v.string(), v.string())), p: v.optional(v.picklist(['asc', 'desc'])),
      own: v.optional(v.string('must be text')),
    });
    expect(message(body, { s: 3 })).toBe('s: must be a string');
    expect(message(body, { n: '3' })).toBe('n: must be a number');
    expect(message(body, { b: 'yes' })).toBe('b: must be a boolean');
    expect(message(body, { a: {} })).toBe('a: must be an array');
    expect(message(body, { a: [1] })).toBe('a.0: must be a string');
    expect(message(body, { o: 'x' })).toBe('o: must be an object');
    expect(message(body, { r: 'x' })).toBe('r: must be an object');
    expect(message(body, { p: 'up' })).toBe('p: must be one of asc, desc');
    expect(message(body, { own: 3 })).toBe('own: must be text');
    expect(message(body, { extra: 1 })).toBe('extra: is not an allowed field');
    expect(message(v.strictObject({ limit: v.optional(v.string()) }), { limit: ['1', '2'] }, 'query')).toBe('limit: must be given once');
  });
});
