import { createMiddleware } from 'hono/factory';
import { sha256Hex } from '../ids.ts';
import { tokenKeyOf } from '../db/entities/token.ts';
import { RecordLoader } from './loader.ts';
import { admitInstallationToken, type IntegrationGrant } from '../integrations/installation-token.ts';
import { scopeOf } from './scope.ts';
import { bindToOrganization } from './token-binding.ts';
import { prefetchKeys } from './prefetch.ts';
import { hintedKeys, rememberTokenUser } from './key-hints.ts';
import { unauthorized } from './errors.ts';
import { nowEpochSeconds } from '../clock.ts';
import type { AppEnv } from './env.ts';
import {
  countFailedAuthentication, enforceTokenLimit, failedAuthenticationCounterKey, refuseBlockedAddress,
} from './rate-limit.ts';
import { countTokenRequest } from './stepped-request-counter.ts';

/**
 * Authenticate: `Authorization: Bearer <token>` must name a known, unrevoked token.
 * Tokens are stored as sha256 hashes. The resource named by the path, and what checking
 * access to it will need (key-hints.ts), are fetched in the same round trip.
 */
export const authenticate = createMiddleware<AppEnv>(async (c, next) => {
  const match = /^Bearer\s+([A-Za-z0-9._~+/=-]{8,512})\s*$/i.exec(c.req.header('authorization') ?? '');
  if (!match) {
    await countFailedAuthentication(c);
    throw unauthorized();
  }
  const tokenHash = sha256Hex(match[1]!);
  const tokenKey = tokenKeyOf(match[1]!, tokenHash);
  const loader = new RecordLoader();
  const resourceKeys = prefetchKeys(c.req.path);
  // The address's count of failed attempts rides in the same batch; the token's counter is
  // written concurrently (shared/http/rate-limit.ts).
  const addressCounterKey = failedAuthenticationCounterKey(c);
  const [tokenCount] = await Promise.all([
    countTokenRequest(tokenHash),
    // The resource is read fresh; what authenticating and the access check read may come
    // from the instance's cache (auth-cache.ts: the revocation window).
    loader.load(resourceKeys, [tokenKey, addressCounterKey, ...hintedKeys(tokenHash, resourceKeys)]),
  ]);
  refuseBlockedAddress(c, loader.peek(addressCounterKey));
  const token = loader.peek(tokenKey);
  // Tokens with an expiry (SSO logins) stop at it, before the table's TTL removes them.
  // Checked on every request, cached record or not.
  const expired = typeof token?.expiresAt === 'number' && token.expiresAt <= nowEpochSeconds();
  if (!token || token.revokedAt || expired) {
    // Every refused token counts against the address, whatever the reason.
    await countFailedAuthentication(c);
    throw unauthorized(expired ? 'The access token has expired' : 'The access token is unknown or has been revoked');
  }
  enforceTokenLimit(c, tokenCount);
  // An integration's installation token: the operation's scope, and the membership it acts with.
  if (token.integration) admitInstallationToken(c.get('operation'), token.integration as IntegrationGrant, token.userId as string, loader);
  const orgId = token.orgId as string | undefined;
  if (orgId !== undefined) bindToOrganization(loader, token.userId as string, orgId);
  rememberTokenUser(tokenHash, token.userId as string);
  c.set('loader', loader);
  c.set('caller', { userId: token.userId as string, tokenHash, ...(orgId !== undefined ? { orgId } : {}) });
  c.set('scope', scopeOf(c));
  await next();
});
