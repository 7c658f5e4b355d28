import { describe, expect, it } from 'vitest';
import type { Context } from 'hono';
import { scopeOf } from './scope.ts';
import { RecordLoader } from './loader.ts';
import type { AppEnv } from './env.ts';

/** The part of a Hono context a scope uses: its variables. */
function contextWith(vars: Map<string, unknown>): Context<AppEnv> {
  return { get: (name: string) => vars.get(name), set: (name: string, value: unknown) => vars.set(name, value) } as unknown as Context<AppEnv>;
}

describe('scopeOf', () => {
  it("reads the caller and the loader from the context's variables, and replaces the loader there", () => {
    const first = new RecordLoader();
    const vars = new Map<string, unknown>([['caller', { userId: 'u1', tokenHash: 'h' }], ['loader', first]]);
    const scope = scopeOf(contextWith(vars));
    expect(scope.caller).toEqual({ userId: 'u1', tokenHash: 'h' });
    expect(scope.loader).toBe(first);
    const next = first.startOver();
    scope.loader = next;
    expect(vars.get('loader')).toBe(next);
    expect(scope.loader).toBe(next);
  });

  it('has no accessors of its own (per-request accessor pairs are old-generation objects: scope.ts)', () => {
    const scope = scopeOf(contextWith(new Map()));
    expect(Object.getOwnPropertyNames(scope)).toEqual([]);
    const other = scopeOf(contextWith(new Map()));
    expect(Object.getPrototypeOf(other)).toBe(Object.getPrototypeOf(scope));
  });
});
