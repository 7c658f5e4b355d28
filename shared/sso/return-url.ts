import { config } from '../config.ts';

/**
 * Whether a RelayState is a URL of this service (the API or the web app), the only places
 * a login redirects to with its token: anything else would be an open redirect that hands
 * tokens to another site.
 */
export function isServiceUrl(value: string): boolean {
  if (!URL.canParse(value)) return false;
  const url = new URL(value);
  const origins = [config.apiUrl, config.appUrl].filter((u) => URL.canParse(u)).map((u) => new URL(u).origin);
  if (!(url.protocol === 'https:' || url.protocol === 'http:') || !origins.includes(url.origin)) return false;
  return !(URL.canParse(config.apiUrl) && url.origin === new URL(config.apiUrl).origin && servesOthersContent(url.pathname));
}

/**
 * Paths of the API's origin whose pages others write: integrations' public endpoints (the
 * answer of a third party's script) and published sites (`/s/...`, which carry integrations'
 * injected scripts). A page there could read the token from the fragment, so a login never
 * returns to them. Nor to the SAML endpoints (`/sso/...`): a provider's startURL redirects to
 * the ssoURL any organization's admin sets, and a browser carries the fragment over a
 * redirect, so the token would reach that site. Compared decoded, case-insensitively and with
 * repeated slashes folded, as routers may match them.
 */
function servesOthersContent(pathname: string): boolean {
  let path = pathname;
  try {
    path = decodeURIComponent(pathname);
  } catch { /* malformed: compared as written */ }
  path = path.toLowerCase().replace(/\/{2,}/g, '/');
  return path.startsWith('/s/') || path === '/s' || path.startsWith('/sso/') || path === '/sso'
    || /^\/v1\/integrations\/[^/]+\/public(\/|$)/.test(path);
}

/** The RelayState URL with the token in its fragment: fragments never reach a server's logs or a Referer. */
export function withTokenFragment(relayState: string, token: string, expiresAt: string): string {
  const url = new URL(relayState);
  url.hash = new URLSearchParams({ token, expiresAt }).toString();
  return url.toString();
}
