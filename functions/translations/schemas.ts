import * as v from 'valibot';
import { id, listQueryEntries, richDocument } from '../../shared/http/schemas.ts';
export { organizationParams } from '../../shared/http/schemas.ts';

/** Path parameters of the `translations` group. */
export const pathParams = v.partial(v.object({
  organizationId: id,
  translationId: id,
}));

export const translationParams = v.object({ organizationId: id, translationId: id });

/** TranslationLanguage of the public interface. */
export const translationLanguages = [
  'en', 'fr', 'de', 'es', 'it', 'pt', 'pt-br', 'ru', 'ja', 'zh', 'zh-tw', 'yue', 'ko', 'ar', 'hi', 'nl', 'pl', 'tr', 'sv', 'no', 'da',
  'fi', 'el', 'cs', 'hu', 'ro', 'th', 'vi', 'id', 'ms', 'he', 'uk', 'sk', 'bg', 'hr', 'lt', 'lv', 'et', 'sl',
] as const;
const language = v.picklist(translationLanguages, 'must be a language code such as en, fr or pt-br');

export const listTranslationsQuery = v.object(listQueryEntries);

export const createTranslationBody = v.strictObject({
  source: v.strictObject({ space: id, language }, 'must be an object {space, language}'),
  language,
  instructions: v.optional(richDocument),
});

export const updateTranslationBody = v.strictObject({ instructions: richDocument });
