import { DeleteCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db } from '../db/client.ts';
import { config } from '../config.ts';
import { nowIso } from '../clock.ts';
import { randomId } from '../ids.ts';
import { emptyTranslationStats, translationEntity, type TranslationItem } from '../db/entities/translation.ts';
import type { StoredDocument } from '../content/types.ts';

/** Instructions of a translation created without any: an empty document. */
const emptyDocument = (): StoredDocument => ({ object: 'document', data: {}, nodes: [] });

export async function createTranslation(input: {
  orgId: string;
  createdBy: string;
  source: { space: string; language: string };
  language: string;
  instructions?: { object: 'document'; data?: Record<string, unknown>; nodes: unknown[] };
}): Promise<TranslationItem> {
  const now = nowIso();
  const translation: TranslationItem = {
    id: randomId(),
    orgId: input.orgId,
    status: 'pending',
    source: { space: input.source.space, language: input.source.language },
    language: input.language,
    instructions: input.instructions ? { ...input.instructions, data: input.instructions.data ?? {} } : emptyDocument(),
    stats: emptyTranslationStats(),
    createdBy: input.createdBy,
    createdAt: now,
    updatedAt: now,
  };
  await db().send(new PutCommand({
    TableName: config.tableName,
    Item: translationEntity.toRecord({ orgId: input.orgId, translationId: translation.id }, translation),
    ConditionExpression: 'attribute_not_exists(pk)',
  }));
  return translation;
}

/** Replaces the instructions; undefined when there is no such translation. */
export async function updateTranslationInstructions(
  orgId: string,
  translationId: string,
  instructions: { object: 'document'; data?: Record<string, unknown>; nodes: unknown[] },
): Promise<TranslationItem | undefined> {
  try {
    const out = await db().send(new UpdateCommand({
      TableName: config.tableName,
      Key: translationEntity.key({ orgId, translationId }),
      UpdateExpression: 'SET instructions = :instructions, updatedAt = :now',
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeValues: { ':instructions': { ...instructions, data: instructions.data ?? {} }, ':now': nowIso() },
      ReturnValues: 'ALL_NEW',
    }));
    return translationEntity.fromRecord(out.Attributes!);
  } catch (error) {
    if ((error as Error).name === 'ConditionalCheckFailedException') return undefined;
    throw error;
  }
}

/** Deletes the translation record (its result space stays, as ordinary content). False when absent. */
export async function deleteTranslation(orgId: string, translationId: string): Promise<boolean> {
  const out = await db().send(new DeleteCommand({
    TableName: config.tableName,
    Key: translationEntity.key({ orgId, translationId }),
    ReturnValues: 'ALL_OLD',
  }));
  return out.Attributes !== undefined;
}
