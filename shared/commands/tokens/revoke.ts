import { sha256Hex } from '../../ids.ts';
import { nowIso } from '../../clock.ts';
import { run } from '../../db/writes.ts';
import { NotFound } from '../../db/errors.ts';
import { tokenEntity } from '../../db/entities/token.ts';
import { listAccessTokens } from './list.ts';

/** Marks the token revoked; false when no token has this secret (nothing is written). */
export async function revokeAccessToken(token: string): Promise<boolean> {
  return revokeByHash(sha256Hex(token));
}

/**
 * Revokes a user's tokens that are not revoked yet (only those labelled `label` when given),
 * e.g. when the secrets are lost or someone leaves; returns how many were revoked.
 */
export async function revokeUserTokens(userId: string, label?: string): Promise<number> {
  const active = (await listAccessTokens(userId)).filter((t) => !t.revokedAt && (label === undefined || t.label === label));
  let revoked = 0;
  for (const token of active) if (await revokeByHash(token.hash)) revoked++;
  return revoked;
}

async function revokeByHash(hash: string): Promise<boolean> {
  try {
    await run(tokenEntity.update({ hash }, { set: { revokedAt: nowIso() } }));
    return true;
  } catch (error) {
    if (error instanceof NotFound) return false;
    throw error;
  }
}
