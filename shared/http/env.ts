import type { RecordLoader } from './loader.ts';
import type { UserItem } from '../db/entities/user.ts';
import type { RateLimitState } from './rate-limit-window.ts';
import type { Operation } from './declare.ts';
import type { RequestScope } from './scope.ts';

export interface Caller {
  userId: string;
  /** sha256 of the bearer token in use. */
  tokenHash: string;
  /** The one organization the token opens (SSO tokens: shared/http/token-binding.ts); absent: all of the user's. */
  orgId?: string;
}

/** Hono environment shared by every group's app. */
export interface AppEnv {
  Variables: {
    caller: Caller;
    loader: RecordLoader;
    /** caller and loader for commands (shared/http/scope.ts); set with them by authenticate. */
    scope: RequestScope;
    user?: UserItem;
    /** The declared operation the request's method and path name (set by checkPathParams). */
    operation?: Operation;
    /** Set by authentication; written as X-RateLimit-* headers on the answer. */
    rateLimit?: RateLimitState;
    /** The request's JSON body, parsed and checked once by requireJsonBody (json-body.ts). */
    jsonBody?: unknown;
  };
}
