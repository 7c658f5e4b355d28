/**
 * Limits of SAML single sign-on, in one place (the README's "Single sign-on (SAML)" lists them).
 */

/** SSO_TOKEN_TTL: seconds an access token handed out by an SSO login lasts (default 8 hours). */
export function ssoTokenTtlSeconds(): number {
  const value = Number(process.env.SSO_TOKEN_TTL);
  return Number.isInteger(value) && value > 0 ? value : 8 * 60 * 60;
}

/** How long an AuthnRequest id stays pending: the person has this long to sign in at the provider. */
export const PENDING_REQUEST_TTL_SECONDS = 5 * 60;

/** Clock skew accepted on NotBefore / NotOnOrAfter (the issue allows at most 3 minutes). */
export const CLOCK_SKEW_MS = 3 * 60 * 1000;

/** Largest accepted SAMLResponse form field (base64 text); real responses are a few KB. */
export const MAX_SAML_RESPONSE_CHARS = 256 * 1024;

/** Largest RelayState echoed back (the binding asks for at most 80 bytes; providers pass longer ones). */
export const MAX_RELAY_STATE_CHARS = 2048;

/** Assertion ids are stored as keys: longer ones are refused. */
export const MAX_ASSERTION_ID_CHARS = 256;
