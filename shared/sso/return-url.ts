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
  return (url.protocol === 'https:' || url.protocol === 'http:') && origins.includes(url.origin);
}

/** The RelayState URL with the token in its fragment: fragments never reach a server's logs or a Referer. */
export function withTokenFragment(relayState: string, token: string, expiresAt: string): string {
  const url = new URL(relayState);
  url.hash = new URLSearchParams({ token, expiresAt }).toString();
  return url.toString();
}
