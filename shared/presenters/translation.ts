import type { TranslationItem } from '../db/entities/translation.ts';
import type { Role } from '../http/schemas.ts';
import { policies } from '../policies/index.ts';
import { apiLocation } from './urls.ts';
import type { TranslationOutput } from './schemas/translation.ts';

/** Translation (spec 2.14), `permissions` for the caller's org role. */
export function presentTranslation(t: TranslationItem, context: { role: Role | null }): TranslationOutput {
  return {
    object: 'translation',
    id: t.id,
    status: t.status,
    source: { space: t.source.space, language: t.source.language },
    language: t.language,
    instructions: t.instructions,
    ...(t.result ? { result: { space: t.result.space, revision: t.result.revision, language: t.result.language } } : {}),
    createdAt: t.createdAt,
    updatedAt: t.updatedAt,
    stats: { ...t.stats },
    permissions: policies.translation.permissions(context, t),
    urls: { location: apiLocation(`/orgs/${t.orgId}/translations/${t.id}`) },
  };
}
