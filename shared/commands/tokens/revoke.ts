import { sha256Hex } from '../../ids.ts';
import { nowIso } from '../../clock.ts';
import { run } from '../../db/writes.ts';
import { NotFound } from '../../db/errors.ts';
import { tokenEntity } from '../../db/entities/token.ts';

/** Marks the token revoked; false when no token has this secret (nothing is written). */
export async function revokeAccessToken(token: string): Promise<boolean> {
  try {
    await run(tokenEntity.update({ hash: sha256Hex(token) }, { set: { revokedAt: nowIso() } }));
    return true;
  } catch (error) {
    if (error instanceof NotFound) return false;
    throw error;
  }
}
