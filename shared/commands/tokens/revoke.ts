import { sha256Hex } from '../../ids.ts';
import { nowIso } from '../../clock.ts';
import { run } from '../../db/writes.ts';
import { tokenEntity } from '../../db/entities/token.ts';

export async function revokeAccessToken(token: string): Promise<void> {
  await run(tokenEntity.update({ hash: sha256Hex(token) }, { set: { revokedAt: nowIso() } }));
}
