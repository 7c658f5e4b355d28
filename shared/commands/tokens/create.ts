import { randomId, sha256Hex } from '../../ids.ts';
import { nowIso } from '../../clock.ts';
import { run } from '../../db/writes.ts';
import { INSTALLATION_TOKEN_SECRET_PREFIX, tokenEntity, type TokenItem } from '../../db/entities/token.ts';

export interface AccessTokenOptions {
  /** The secret to store the hash of (the local bootstrap token); default: a new random one. */
  secret?: string;
  /** Epoch seconds after which the token stops authenticating (SSO tokens); default: until revoked. */
  expiresAt?: number;
  /** The one organization the token opens (SSO tokens); default: all of the user's. */
  orgId?: string;
}

/** Creates an access token; the secret is returned once and only its hash is stored. */
export async function createAccessToken(userId: string, label = 'access token', { secret, expiresAt, orgId }: AccessTokenOptions = {}): Promise<string> {
  // That prefix sends authentication to installation tokens' partitions (token.ts): a user token with it would never authenticate.
  if (secret?.startsWith(INSTALLATION_TOKEN_SECRET_PREFIX)) throw new Error(`an access token's secret may not start with ${INSTALLATION_TOKEN_SECRET_PREFIX}`);
  const token = secret ?? `dps_${randomId(40)}`;
  const hash = sha256Hex(token);
  const item: TokenItem = { hash, userId, label, createdAt: nowIso(), ...(expiresAt !== undefined ? { expiresAt } : {}), ...(orgId !== undefined ? { orgId } : {}) };
  await run(tokenEntity.put({ hash }, item));
  return token;
}
