import { NotFound } from '../../db/errors.ts';
import { nowIso } from '../../clock.ts';
import { translationEntity, type TranslationItem } from '../../db/entities/translation.ts';
import { run } from '../../db/writes.ts';

/** Replaces the instructions; undefined when there is no such translation. */
export async function updateTranslationInstructions(
  orgId: string,
  translationId: string,
  instructions: { object: 'document'; data?: Record<string, unknown>; nodes: unknown[] },
): Promise<TranslationItem | undefined> {
  try {
    return await run(translationEntity.update({ orgId, translationId }, {
      set: { instructions: { ...instructions, data: instructions.data ?? {} }, updatedAt: nowIso() },
    }));
  } catch (error) {
    if (error instanceof NotFound) return undefined;
    throw error;
  }
}
