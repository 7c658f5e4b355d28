import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { db } from '../db/client.ts';
import { config } from '../config.ts';
import { getRecord } from '../db/operations.ts';
import { nowEpochSeconds, nowIso } from '../clock.ts';
import { samlAssertionEntity } from '../db/entities/saml-assertion.ts';
import { refused } from './errors.ts';

const replayed = () => refused('this assertion was already used to sign in');

/**
 * Whether an assertion id (still unverified: only used to refuse early) was accepted
 * before. An expired item reads as absent (emulators never delete).
 */
export async function refuseKnownAssertion(providerId: string, assertionId: string): Promise<void> {
  const record = await getRecord(samlAssertionEntity.key({ providerId, assertionId }), true);
  if (record && (record.expiresAt as number) > nowEpochSeconds()) throw replayed();
}

/**
 * Accepts a verified assertion once: a conditional Put of its id, kept until it could no
 * longer be accepted anyway. Two concurrent posts of one assertion: one of them wins.
 */
export async function acceptAssertionOnce(providerId: string, assertionId: string, usableUntilMs: number): Promise<void> {
  try {
    await db().send(new PutCommand({
      TableName: config.tableName,
      Item: samlAssertionEntity.toRecord({ providerId, assertionId }, {
        providerId, assertionId, usedAt: nowIso(), expiresAt: Math.ceil(usableUntilMs / 1000),
      }),
      ConditionExpression: 'attribute_not_exists(pk) OR expiresAt <= :now',
      ExpressionAttributeValues: { ':now': nowEpochSeconds() },
    }));
  } catch (error) {
    if ((error as Error)?.name === 'ConditionalCheckFailedException') throw replayed();
    throw error;
  }
}
