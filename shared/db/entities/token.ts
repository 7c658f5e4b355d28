import { defineEntity } from '../entity.ts';

export interface TokenItem {
  /** sha256 of the secret; the secret itself is never stored. */
  hash: string;
  userId: string;
  label: string;
  createdAt: string;
  revokedAt?: string;
  /** Epoch seconds after which the token no longer authenticates (also the table's TTL attribute); absent: no expiry. */
  expiresAt?: number;
  /**
   * The one organization this token opens (SSO logins: the organization whose identity
   * provider signed the login; shared/http/token-binding.ts). Absent: every organization
   * the user is a member of.
   */
  orgId?: string;
  /** Installation tokens handed to integration scripts (shared/integrations/installation-token.ts). */
  integration?: { name: string; installationId: string; orgId: string; scopes: string[] };
}

/** TOKEN#<sha256> / TOKEN: one GetItem authenticates a request. A user's tokens via gsi1. */
export const tokenEntity = defineEntity<TokenItem>()({
  type: 'token',
  key: ({ hash }: { hash: string }) => ({ pk: `TOKEN#${hash}`, sk: 'TOKEN' }),
  indexes: {
    byUser: { index: 'gsi1', pk: (a: { userId: string }) => `USER#${a.userId}#TOKENS`, sk: (t) => t.createdAt },
  },
});

/**
 * Installation tokens (shared/integrations/installation-token.ts) live in partitions of their
 * own, so the integration runtime, which mints them, may write these and no user's token
 * (infra/constructs/access.ts): a runtime running a script that escaped its sandbox could
 * otherwise store a token of its making for any user. Their secrets start with
 * INSTALLATION_TOKEN_SECRET_PREFIX, which tells authentication where to look.
 */
export const INSTALLATION_TOKEN_KEY_PREFIX = 'INSTALLATIONTOKEN#';
export const INSTALLATION_TOKEN_SECRET_PREFIX = 'dpsi_';

/** INSTALLATIONTOKEN#<sha256> / TOKEN: an installation token, read as a token is. */
export const installationTokenEntity = defineEntity<TokenItem>()({
  type: 'installation-token',
  key: ({ hash }: { hash: string }) => ({ pk: `${INSTALLATION_TOKEN_KEY_PREFIX}${hash}`, sk: 'TOKEN' }),
});

/** Where the token with this secret is stored (its hash given too, computed once per request). */
export const tokenKeyOf = (secret: string, hash: string) =>
  (secret.startsWith(INSTALLATION_TOKEN_SECRET_PREFIX) ? installationTokenEntity : tokenEntity).key({ hash });
