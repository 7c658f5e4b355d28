import { nowIso } from '../../clock.ts';
import { randomId } from '../../ids.ts';
import { emptyTranslationStats, translationEntity, type TranslationItem } from '../../db/entities/translation.ts';
import type { StoredDocument } from '../../content/types.ts';
import { run } from '../../db/writes.ts';

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
  await run(translationEntity.create({ orgId: input.orgId, translationId: translation.id }, translation));
  return translation;
}
