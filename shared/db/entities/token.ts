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

/**
 * The prefix of every access token's partition (TOKEN#<sha256 of the token>): the integration
 * runtime may write these, as it mints installation tokens (infra/constructs/access.ts).
 */
export const TOKEN_KEY_PREFIX = 'TOKEN#';

/** TOKEN#<sha256> / TOKEN: one GetItem authenticates a request. A user's tokens via gsi1. */
export const tokenEntity = defineEntity<TokenItem>()({
  type: 'token',
  key: ({ hash }: { hash: string }) => ({ pk: `${TOKEN_KEY_PREFIX}${hash}`, sk: 'TOKEN' }),
  indexes: {
    byUser: { index: 'gsi1', pk: (a: { userId: string }) => `USER#${a.userId}#TOKENS`, sk: (t) => t.createdAt },
  },
});
