import * as v from 'valibot';

/** Site ids as the service makes them (shared/ids.ts), checked before any read. */
export const siteIdSchema = v.pipe(v.string(), v.regex(/^[A-Za-z0-9_-]{1,64}$/));

/** Query parameters the reader understands; others are ignored. */
export const readerQuery = v.object({
  /** Search query of the search box (at most 200 characters are used). */
  q: v.optional(v.pipe(v.string(), v.transform((s) => s.slice(0, 200)))),
  /** Share link secret (share-link sites), remembered in a cookie. */
  share: v.optional(v.string()),
  /** Visitor JWT (visitor-auth sites), remembered in a cookie. */
  jwt_token: v.optional(v.string()),
});

export type ReaderQuery = v.InferOutput<typeof readerQuery>;

/** A claim's name: an identifier, never one that reaches an object's prototype. */
const CLAIM_NAME = /^[A-Za-z_]\w{0,63}$/;
const NOT_A_CLAIM = new Set(['__proto__', 'constructor', 'prototype']);
const isClaimName = (name: string) => CLAIM_NAME.test(name) && !NOT_A_CLAIM.has(name);

/** `?visitor.<name>=<value>` query parameters: unsigned claims for adaptive content. */
export function unsignedClaims(query: Record<string, string>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, raw] of Object.entries(query)) {
    const name = /^visitor\.(.+)$/.exec(key)?.[1];
    if (!name || !isClaimName(name)) continue;
    out[name] = raw === 'true' ? true : raw === 'false' ? false : /^-?\d+(\.\d+)?$/.test(raw) ? Number(raw) : raw.slice(0, 200);
  }
  return out;
}

/** What a browser keeps of one cookie (name and value, 4096 bytes), less the cookie's name. */
export const MAX_COOKIE_VALUE = 4000;

/** What a visitor cookie's JSON may hold: a cookie's value; names per object, levels, items per array. */
const COOKIE_CLAIMS = { maxChars: MAX_COOKIE_VALUE, maxNames: 64, maxDepth: 4, maxItems: 64, maxString: 200 } as const;

/**
 * The `docs-visitor-public` cookie (functions/reader/visitor-claims.ts): a JSON object of
 * unsigned claims. Kept: booleans, finite numbers, strings (their first 200 characters),
 * arrays of those and objects of all these, 4 levels deep, 64 names an object; anything else
 * is left out. A value that is not a JSON object (or is too long) gives no claims.
 */
export function cookieClaims(raw: string | undefined): Record<string, unknown> | undefined {
  if (!raw || raw.length > COOKIE_CLAIMS.maxChars) return undefined;
  try {
    return claimObject(JSON.parse(raw), 1);
  } catch {
    return undefined;
  }
}

function claimObject(value: unknown, depth: number): Record<string, unknown> | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value) || depth > COOKIE_CLAIMS.maxDepth) return undefined;
  const out: Record<string, unknown> = {};
  let names = 0;
  for (const [name, item] of Object.entries(value)) {
    if (names >= COOKIE_CLAIMS.maxNames) break;
    const claim = isClaimName(name) ? claimValue(item, depth) : undefined;
    if (claim === undefined) continue;
    out[name] = claim;
    names++;
  }
  return out;
}

function claimValue(value: unknown, depth: number): unknown {
  if (typeof value === 'boolean') return value;
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (typeof value === 'string') return value.slice(0, COOKIE_CLAIMS.maxString);
  if (Array.isArray(value)) {
    return value.slice(0, COOKIE_CLAIMS.maxItems).map((item) => (Array.isArray(item) || typeof item === 'object' ? undefined : claimValue(item, depth))).filter((item) => item !== undefined);
  }
  return claimObject(value, depth + 1);
}
