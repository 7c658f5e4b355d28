import { randomId, sha256Hex } from '../../ids.ts';
import { nowIso } from '../../clock.ts';
import { run } from '../../db/writes.ts';
import { tokenEntity } from '../../db/entities/token.ts';

/**
 * Creates an access token; the secret is returned once and only its hash is stored.
 * `expiresAt` (epoch seconds) limits its life (SSO tokens); without it the token lasts until revoked.
 */
export async function createAccessToken(userId: string, label = 'access token', secret?: string, expiresAt?: number): Promise<string> {
  const token = secret ?? `dps_${randomId(40)}`;
  const hash = sha256Hex(token);
  await run(tokenEntity.put({ hash }, { hash, userId, label, createdAt: nowIso(), ...(expiresAt !== undefined ? { expiresAt } : {}) }));
  return token;
}
