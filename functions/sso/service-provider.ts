import { Hono } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { accepts } from 'hono/accepts';
import { bodyLimit } from 'hono/body-limit';
import { validate } from '../../shared/http/validate.ts';
import { errorBody, errorResponse } from '../../shared/http/errors.ts';
import { samlRateLimit } from '../../shared/http/rate-limit.ts';
import { presentUser } from '../../shared/presenters/user.ts';
import { providerById, requireConfigured } from '../../shared/sso/providers.ts';
import { samlClient, serviceProviderMetadata } from '../../shared/sso/saml-client.ts';
import { verifySAMLResponse } from '../../shared/sso/verify-response.ts';
import { pendingRequests } from '../../shared/sso/pending-requests.ts';
import { bindRequestToBrowser, requireRequestOfThisBrowser } from '../../shared/sso/browser-binding.ts';
import { acceptAssertionOnce } from '../../shared/sso/replay-store.ts';
import { identityOf } from '../../shared/sso/identity.ts';
import { isServiceUrl, withTokenFragment } from '../../shared/sso/return-url.ts';
import { MAX_SAML_RESPONSE_CHARS } from '../../shared/sso/settings.ts';
import { signInWithSAML } from '../../shared/commands/sso/login.ts';
import { acsForm, startQuery } from './sp-schemas.ts';
import { serviceProviderParams } from './schemas.ts';
import { tokenPage } from './token-page.ts';
import { errorPage } from './error-page.ts';
import { observeRequests } from '../../shared/http/observe-requests.ts';

/**
 * The SAML service provider of each SAML provider, at the addresses its `service` shows
 * (shared/presenters/saml-provider.ts): `entityID` serves the SP metadata, `startURL`
 * starts an SP-initiated login, `acsURL` consumes the signed response and hands over an
 * access token. No bearer token here: the signed assertion is the credential.
 */
export const serviceProviderApp = new Hono().basePath('/sso/saml');

serviceProviderApp.use('*', observeRequests({ group: 'sso-saml' }));
serviceProviderApp.use('*', samlRateLimit);
serviceProviderApp.use('*', bodyLimit({
  maxSize: MAX_SAML_RESPONSE_CHARS + 16 * 1024,
  onError: (c) => c.json(errorBody(413, 'body: is too large for a SAML response'), 413),
}));
serviceProviderApp.notFound((c) => c.json(errorBody(404, `No route for ${c.req.method} ${c.req.path}`), 404));
serviceProviderApp.onError(async (error, c) => {
  const res = errorResponse(c, error);
  // A browser (the IdP's auto-posted form, a link to startURL) gets the error as a page.
  if (accepts(c, { header: 'Accept', supports: ['application/json', 'text/html'], default: 'application/json' }) !== 'text/html') return res;
  const { error: { code, message } } = await res.json() as { error: { code: number; message: string } };
  c.header('Cache-Control', 'no-store');
  c.header('Content-Security-Policy', "default-src 'none'; frame-ancestors 'none'");
  return c.html(errorPage({ status: code, message }), res.status as ContentfulStatusCode);
});

serviceProviderApp.get('/:providerId', validate('param', serviceProviderParams), async (c) => {
  const provider = await providerById(c.req.valid('param').providerId);
  return c.body(serviceProviderMetadata(provider), 200, { 'Content-Type': 'application/samlmetadata+xml; charset=utf-8' });
});

serviceProviderApp.get('/:providerId/start', validate('param', serviceProviderParams), validate('query', startQuery), async (c) => {
  const provider = requireConfigured(await providerById(c.req.valid('param').providerId));
  // HTTP-Redirect binding; node-saml stores the request id as pending (shared/sso/pending-requests.ts),
  // and this browser is the one that may receive the answer (shared/sso/browser-binding.ts).
  const cache = pendingRequests(provider, (requestId) => bindRequestToBrowser(c, provider, requestId));
  const location = await samlClient(provider, cache).getAuthorizeUrlAsync(c.req.valid('query').RelayState ?? '', undefined, {});
  c.header('Cache-Control', 'no-store');
  return c.redirect(location, 302);
});

serviceProviderApp.post('/:providerId/acs', validate('param', serviceProviderParams), validate('form', acsForm), async (c) => {
  const provider = requireConfigured(await providerById(c.req.valid('param').providerId));
  const { SAMLResponse, RelayState } = c.req.valid('form');
  const type = accepts(c, { header: 'Accept', supports: ['text/html', 'application/json'], default: 'text/html' });
  const verified = await verifySAMLResponse(provider, SAMLResponse);
  if (type !== 'application/json') requireRequestOfThisBrowser(c, provider, verified.inResponseTo);
  const identity = identityOf(verified.profile);
  await acceptAssertionOnce(provider.id, verified.assertionId, verified.usableUntilMs);
  const login = await signInWithSAML(provider, identity);
  const expiresAt = new Date(login.expiresAt * 1000).toISOString();

  c.header('Cache-Control', 'no-store');
  c.header('Referrer-Policy', 'no-referrer');
  if (type === 'application/json') {
    return c.json({ token: login.token, user: presentUser(login.user), organization: provider.orgId, expiresAt });
  }
  if (RelayState && isServiceUrl(RelayState)) return c.redirect(withTokenFragment(RelayState, login.token, expiresAt), 303);
  c.header('Content-Security-Policy', "default-src 'none'; frame-ancestors 'none'");
  return c.html(tokenPage({ email: login.user.email, organization: provider.orgId, token: login.token, expiresAt }));
});
