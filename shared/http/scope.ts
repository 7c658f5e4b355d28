import type { Context } from 'hono';
import type { Caller, AppEnv } from './env.ts';
import type { RecordLoader } from './loader.ts';

/**
 * What a command needs from the request: who calls and the request's record cache.
 * Commands, loaders and presenters outside shared/http take this instead of a Hono
 * Context, so they run the same from a route, a worker or a test.
 */
export interface RequestScope {
  readonly caller: Caller;
  /** Replaced (scope.loader = scope.loader.startOver()) when a command starts over after a conflict. */
  loader: RecordLoader;
}

/**
 * The request scope of a Hono request; reads and writes go to the context's variables.
 * A class, so that its accessors are on the prototype. As an object literal with `get` and
 * `set`, every request made three closures over its context and put them in accessor pairs,
 * which V8 allocates in the old generation: the scavenger treats old-to-young pointers as
 * roots, so each request's context (its request, answer, loader and records) outlived the
 * next scavenge and was promoted, freed only by a full collection. Under load, cached
 * authentication promoted ~9 MB per scavenge, with 10-36 ms pauses; now ~40 KB and ~1 ms
 * (issue 17, bench/README.md).
 */
class ContextScope implements RequestScope {
  readonly #c: Context<AppEnv>;

  constructor(c: Context<AppEnv>) {
    this.#c = c;
  }

  get caller(): Caller {
    return this.#c.get('caller');
  }

  get loader(): RecordLoader {
    return this.#c.get('loader');
  }

  set loader(loader: RecordLoader) {
    this.#c.set('loader', loader);
  }
}

export function scopeOf(c: Context<AppEnv>): RequestScope {
  return new ContextScope(c);
}
