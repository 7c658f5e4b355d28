import type { Context } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import type { SAMLProviderItem } from '../db/entities/saml-provider.ts';
import { samlService } from '../presenters/saml-provider.ts';
import { refused } from './errors.ts';
import { PENDING_REQUEST_TTL_SECONDS } from './settings.ts';

/**
 * Login CSRF: a response the identity provider signed for an attacker, posted to the acsURL
 * by the victim's browser from the attacker's page, would sign that browser in as the
 * attacker (RelayState carries the token into the app). So the browser that opens startURL
 * gets a cookie named after its AuthnRequest, on the provider's path, and an answer meant
 * for a browser (page or redirect) is only given to the browser holding the cookie of the
 * request it answers. SameSite=None (hence Secure): the ACS post comes from the IdP's site.
 * A JSON answer is not bound: a page cannot read it across origins.
 */
const cookieName = (requestId: string) => `saml_request_${requestId}`;

function cookieOptions(provider: Pick<SAMLProviderItem, 'id'>) {
  return { path: new URL(samlService(provider).entityID).pathname, secure: true, httpOnly: true, sameSite: 'None' } as const;
}

/** At startURL: this browser started the request `requestId`. */
export function bindRequestToBrowser(c: Context, provider: Pick<SAMLProviderItem, 'id'>, requestId: string): void {
  setCookie(c, cookieName(requestId), '1', { ...cookieOptions(provider), maxAge: PENDING_REQUEST_TTL_SECONDS });
}

/** At acsURL, for a browser answer: the response must answer a request this browser started; the cookie is then spent. */
export function requireRequestOfThisBrowser(c: Context, provider: Pick<SAMLProviderItem, 'id'>, requestId: string | undefined): void {
  if (!requestId || getCookie(c, cookieName(requestId)) === undefined) {
    throw refused('this sign-in was not started in this browser: open the provider\'s startURL again');
  }
  deleteCookie(c, cookieName(requestId), cookieOptions(provider));
}
