import type { Context } from 'hono';
import { getCookie } from 'hono/cookie';
import type { JWTPayload } from 'jose';
import type { SiteItem } from '../../shared/db/entities/site.ts';
import { verifyVisitorToken } from '../../shared/reader/visitor.ts';
import { cookieClaims, MAX_COOKIE_VALUE, unsignedClaims } from './schemas.ts';

/**
 * Cookies an application sets for its docs on a parent domain both share, as GitBook's
 * `gitbook-visitor-public` and `gitbook-visitor-token` (the product prefix replaced, as in
 * the interface's other names): a JSON object of unsigned claims, and a JWT signed with the
 * site's visitor key (`GET /s/<site>/~visitor-key`) whose claims are signed.
 */
export const VISITOR_PUBLIC_COOKIE = 'docs-visitor-public';
export const VISITOR_TOKEN_COOKIE = 'docs-visitor-token';

const REGISTERED = new Set(['iss', 'sub', 'aud', 'exp', 'nbf', 'iat', 'jti']);

/** A verified token's own claims (the JWT's registered claims are not the visitor's). */
export function claimsOfToken(payload: JWTPayload): Record<string, unknown> {
  return Object.fromEntries(Object.entries(payload).filter(([k]) => !REGISTERED.has(k)));
}

export interface VisitorClaims {
  /** What conditions see as `visitor.claims`: signed claims, and `unsigned`. */
  claims: Record<string, unknown>;
  /** Read from the visitor's cookies: the page is that visitor's, never one for a shared cache. */
  personal: boolean;
}

/**
 * The claims adaptive content sees on one request, only where the site's
 * `adaptiveContent.enabled` is set (GitBook passes visitor data only to such sites; the
 * interface's default is false). Elsewhere there are none: every condition that asks for a
 * claim is false, so conditional content stays hidden and one rendering serves everyone.
 * - Signed: the visitor-auth JWT's claims (`signed`, checked for access), else those of a
 *   valid `docs-visitor-token` cookie (an invalid one is ignored: the page stays public).
 * - Unsigned (`visitor.claims.unsigned`): the `docs-visitor-public` cookie, then
 *   `?visitor.<name>=` parameters over it, then a signed token's own `unsigned` object over both.
 */
export async function visitorClaims(c: Context, site: SiteItem, signed: Record<string, unknown> | undefined, query: Record<string, string>): Promise<VisitorClaims> {
  if (!site.adaptiveContent?.enabled) return { claims: {}, personal: false };
  const fromCookie = cookieClaims(getCookie(c, VISITOR_PUBLIC_COOKIE));
  let fromToken: Record<string, unknown> | undefined;
  const token = signed ? undefined : getCookie(c, VISITOR_TOKEN_COOKIE);
  if (token && token.length <= MAX_COOKIE_VALUE) {
    const payload = await verifyVisitorToken(site.id, token);
    if (payload) fromToken = claimsOfToken(payload);
  }
  const own = signed ?? fromToken ?? {};
  const ownUnsigned = own.unsigned && typeof own.unsigned === 'object' ? own.unsigned : {};
  return {
    claims: { ...own, unsigned: { ...fromCookie, ...unsignedClaims(query), ...ownUnsigned } },
    personal: fromCookie !== undefined || fromToken !== undefined,
  };
}
