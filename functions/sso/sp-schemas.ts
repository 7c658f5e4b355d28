import * as v from 'valibot';
import { isServiceUrl } from '../../shared/sso/return-url.ts';
import { MAX_RELAY_STATE_CHARS, MAX_SAML_RESPONSE_CHARS } from '../../shared/sso/settings.ts';

/** Requests of the SAML service-provider endpoints (service-provider.ts); path parameters in schemas.ts. */

const relayState = v.pipe(v.string('must be a string'), v.maxLength(MAX_RELAY_STATE_CHARS, `must be at most ${MAX_RELAY_STATE_CHARS} characters`));

/** startURL: where the browser returns after login, a URL of this service only. */
export const startQuery = v.object({
  RelayState: v.optional(v.pipe(relayState, v.check(isServiceUrl, 'must be a URL of this service'))),
});

/** acsURL (HTTP-POST binding): the base64 response and the RelayState echoed by the provider. */
export const acsForm = v.object({
  SAMLResponse: v.pipe(
    v.string('must be a string'),
    v.nonEmpty('must not be empty'),
    v.maxLength(MAX_SAML_RESPONSE_CHARS, `must be at most ${MAX_SAML_RESPONSE_CHARS} characters`),
    v.regex(/^[A-Za-z0-9+/=\s]+$/, 'must be base64'),
  ),
  RelayState: v.optional(relayState),
});
