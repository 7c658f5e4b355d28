import type { Context } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import type { SiteTree } from '../../shared/commands/sites/tree.ts';
import { hashShareSecret } from '../../shared/commands/sites/share-links.ts';
import { verifyVisitorToken } from '../../shared/reader/visitor.ts';
import { claimsOfToken, VISITOR_TOKEN_COOKIE } from './visitor-claims.ts';
import { readerBasePath } from '../../shared/reader/site.ts';
import { MAX_COOKIE_VALUE, type ReaderQuery } from './schemas.ts';
import type { MessageKey } from '../../shared/reader/messages.ts';

/** Why a request was refused, as a key of the reader's messages (shown in the site's locale). */
type AccessMessage = Extract<MessageKey, 'accessShareLink' | 'accessShareLinkInvalid' | 'accessSignIn' | 'accessTokenInvalid' | 'accessUnavailable'>;

/** What a request may see of a site, decided on every request (docs/decisions.md, "Reader site"). */
export type Access =
  | { ok: true; /** The visitor-auth JWT's own claims (visitor-claims.ts). */ signed?: Record<string, unknown>; shared: boolean; noindex: boolean }
  | { ok: false; status: 401; message: AccessMessage };

export const shareCookie = (siteId: string) => `docs_share_${siteId}`;
export const visitorCookie = (siteId: string) => `docs_visitor_${siteId}`;

/** Longer credentials are refused unread (a wrong credential: the 401 page, not a 404). */
const MAX_SHARE_KEY = 200;
const MAX_VISITOR_TOKEN = 8192;

/** Remembers a credential; without a lifetime (a token without `exp`) until the browser closes. */
function remember(c: Context, name: string, value: string, siteId: string, maxAge: number | undefined) {
  setCookie(c, name, value, {
    path: readerBasePath(siteId),
    httpOnly: true,
    sameSite: 'Lax',
    secure: new URL(c.req.url).protocol === 'https:',
    ...(maxAge === undefined ? {} : { maxAge: Math.max(60, Math.min(maxAge, 30 * 24 * 3600)) }),
  });
}

/**
 * A refused credential that came from its cookie (an expired token, a disabled share link) is
 * removed: the browser stops sending it, and a revoked secret does not stay stored there.
 */
function refuse(c: Context, fromCookie: string | undefined, siteId: string, message: AccessMessage): Access {
  if (fromCookie) deleteCookie(c, fromCookie, { path: readerBasePath(siteId) });
  return { ok: false, status: 401, message };
}

/**
 * Where a browser that opened the site with its credential in the URL (`?share=`,
 * `?jwt_token=`) is sent once the credential is in its cookie: the same address without it,
 * so the secret does not stay in the address bar, the history, bookmarks or copied links.
 * Only navigations (`Sec-Fetch-Mode: navigate`, sent by browsers): tools fetching `.md` or
 * llms.txt with the credential in every URL keep no cookies and are answered directly.
 */
export function credentialFreeLocation(c: Context, query: ReaderQuery): string | undefined {
  const credential = query.share ?? query.jwt_token;
  if (credential === undefined) return undefined;
  // A token too long for a cookie would not be kept: the page is answered with it in the URL.
  if (credential.length > MAX_COOKIE_VALUE) return undefined;
  if (c.req.method !== 'GET' || c.req.header('sec-fetch-mode') !== 'navigate') return undefined;
  const params = new URLSearchParams(new URL(c.req.url).search);
  params.delete('share');
  params.delete('jwt_token');
  const search = params.toString();
  return `${c.req.path}${search ? `?${search}` : ''}`;
}

/**
 * public: everyone (indexable); unlisted: everyone, noindex; share-link: an active share
 * link's secret (`?share=` or its cookie); visitor-auth: a JWT signed with the site's key
 * (`?jwt_token=`, its cookie, or the application's `docs-visitor-token` cookie), whose claims
 * drive adaptive content (visitor-claims.ts). Credentials given in
 * the query are remembered in an HttpOnly cookie scoped to the site's path.
 */
export async function checkAccess(c: Context, tree: SiteTree, query: ReaderQuery): Promise<Access> {
  const { site } = tree;
  switch (site.visibility) {
    case 'public':
      return { ok: true, shared: false, noindex: false };
    case 'unlisted':
      return { ok: true, shared: false, noindex: true };
    case 'share-link': {
      const key = query.share ?? getCookie(c, shareCookie(site.id));
      if (!key) return { ok: false, status: 401, message: 'accessShareLink' };
      const fromCookie = query.share === undefined ? shareCookie(site.id) : undefined;
      if (key.length > MAX_SHARE_KEY) return refuse(c, fromCookie, site.id, 'accessShareLinkInvalid');
      const hash = hashShareSecret(key);
      if (!tree.shareLinks.some((l) => l.active && l.secretHash === hash)) return refuse(c, fromCookie, site.id, 'accessShareLinkInvalid');
      if (query.share) remember(c, shareCookie(site.id), key, site.id, 7 * 24 * 3600);
      return { ok: true, shared: true, noindex: true };
    }
    case 'visitor-auth': {
      // The token in the URL, else the service's own cookie, else the application's
      // `docs-visitor-token` (set on a parent domain when its user signs in, as with GitBook).
      const own = getCookie(c, visitorCookie(site.id));
      const token = query.jwt_token ?? own ?? getCookie(c, VISITOR_TOKEN_COOKIE);
      if (!token) return { ok: false, status: 401, message: 'accessSignIn' };
      // Only the service's own cookie is removed when refused: the application's is not its to clear.
      const fromCookie = query.jwt_token === undefined && own !== undefined ? visitorCookie(site.id) : undefined;
      if (token.length > MAX_VISITOR_TOKEN) return refuse(c, fromCookie, site.id, 'accessTokenInvalid');
      const payload = await verifyVisitorToken(site.id, token);
      if (!payload) return refuse(c, fromCookie, site.id, 'accessTokenInvalid');
      if (query.jwt_token) remember(c, visitorCookie(site.id), token, site.id, payload.exp === undefined ? undefined : payload.exp - Math.floor(Date.now() / 1000));
      return { ok: true, signed: claimsOfToken(payload), shared: true, noindex: true };
    }
    default:
      return { ok: false, status: 401, message: 'accessUnavailable' };
  }
}
