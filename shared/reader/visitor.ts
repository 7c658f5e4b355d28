import { jwtVerify, SignJWT, type JWTPayload } from 'jose';
import { derivedKey } from '../secrets/keys.ts';

/**
 * Visitor authentication of `visitor-auth` sites (docs/decisions.md, "Reader site").
 * Each site has its own HS256 signing key, derived (HKDF-SHA256, its own label and the
 * site id) from the service secret: nothing is stored, a leaked table reveals no key,
 * and one site's key cannot sign tokens for another. The site owner gets it from
 * `GET /s/<siteId>/~visitor-key` (org admins, with their API token) and signs visitor
 * tokens with it in their own login flow.
 */
export async function siteVisitorKey(siteId: string): Promise<string> {
  return (await derivedKey('site-visitor-key', siteId)).toString('base64url');
}

const keyBytes = async (siteId: string) => new TextEncoder().encode(await siteVisitorKey(siteId));

/** The claims of a visitor token signed with the site's key, or undefined (bad signature, expired, other algorithm). */
export async function verifyVisitorToken(siteId: string, token: string): Promise<JWTPayload | undefined> {
  try {
    const { payload } = await jwtVerify(token, await keyBytes(siteId), { algorithms: ['HS256'], clockTolerance: 5 });
    return payload;
  } catch {
    return undefined;
  }
}

/** Signs a visitor token for a site (tests, and a reference for site owners). */
export async function signVisitorToken(siteId: string, claims: Record<string, unknown>, expiresInSeconds = 3600): Promise<string> {
  return new SignJWT(claims)
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuedAt()
    .setExpirationTime(Math.floor(Date.now() / 1000) + expiresInSeconds)
    .sign(await keyBytes(siteId));
}
