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

/** `?visitor.<name>=<value>` query parameters: unsigned claims for adaptive content. */
export function unsignedClaims(query: Record<string, string>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, raw] of Object.entries(query)) {
    const name = /^visitor\.([A-Za-z_][\w]{0,63})$/.exec(key)?.[1];
    if (!name) continue;
    out[name] = raw === 'true' ? true : raw === 'false' ? false : /^-?\d+(\.\d+)?$/.test(raw) ? Number(raw) : raw.slice(0, 200);
  }
  return out;
}
