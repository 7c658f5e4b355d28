import { ConditionFailed } from '../db/errors.ts';
import { nowEpochSeconds, nowIso } from '../clock.ts';
import { samlAssertionEntity } from '../db/entities/saml-assertion.ts';
import { refused } from './errors.ts';
import { run } from '../db/writes.ts';

const replayed = () => refused('this assertion was already used to sign in');

/**
 * Whether an assertion id (still unverified: only used to refuse early) was accepted
 * before. An expired item reads as absent (emulators never delete).
 */
export async function refuseKnownAssertion(providerId: string, assertionId: string): Promise<void> {
  const assertion = await samlAssertionEntity.get({ providerId, assertionId }, { consistent: true });
  if (assertion && assertion.expiresAt > nowEpochSeconds()) throw replayed();
}

/**
 * Accepts a verified assertion once: a conditional Put of its id, kept until it could no
 * longer be accepted anyway. Two concurrent posts of one assertion: one of them wins.
 */
export async function acceptAssertionOnce(providerId: string, assertionId: string, usableUntilMs: number): Promise<void> {
  try {
    const now = nowEpochSeconds();
    await run(samlAssertionEntity.put({ providerId, assertionId }, {
      providerId, assertionId, usedAt: nowIso(), expiresAt: Math.ceil(usableUntilMs / 1000),
    }, (w) => w.or(w.absent(), w.le('expiresAt', now))));
  } catch (error) {
    if (error instanceof ConditionFailed) throw replayed();
    throw error;
  }
}
