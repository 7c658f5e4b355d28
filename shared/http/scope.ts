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

/** The request scope of a Hono request; reads and writes go to the context's variables. */
export function scopeOf(c: Context<AppEnv>): RequestScope {
  return {
    get caller() { return c.get('caller'); },
    get loader() { return c.get('loader'); },
    set loader(loader: RecordLoader) { c.set('loader', loader); },
  };
}
