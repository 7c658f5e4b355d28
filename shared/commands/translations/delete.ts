import { translationEntity } from '../../db/entities/translation.ts';
import { run } from '../../db/writes.ts';

/** Deletes the translation record (its result space stays, as ordinary content). False when absent. */
export async function deleteTranslation(orgId: string, translationId: string): Promise<boolean> {
  return (await run(translationEntity.delete({ orgId, translationId }))) !== undefined;
}
