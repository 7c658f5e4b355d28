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
}

/** TOKEN#<sha256> / TOKEN: one GetItem authenticates a request. A user's tokens via gsi1. */
export const tokenEntity = defineEntity<TokenItem, { hash: string }>({
  type: 'token',
  key: ({ hash }) => ({ pk: `TOKEN#${hash}`, sk: 'TOKEN' }),
  indexes: (t) => ({ gsi1: { pk: `USER#${t.userId}#TOKENS`, sk: t.createdAt } }),
});
