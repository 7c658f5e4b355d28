import * as v from 'valibot';
import { defaultLevel, emojiOrEmpty, id, oneLine, listQueryEntries, mergeRules, moveContentBody, partialBody } from '../../shared/http/schemas.ts';
export { organizationParams, spaceParams } from '../../shared/http/schemas.ts';
import { translationLanguages } from '../translations/schemas.ts';
import { maxChars } from '../../shared/http/string-length.ts';

const title = v.pipe(v.string('must be a string'), v.trim(), maxChars(50), oneLine);
/** null (or an empty string) removes the space's emoji. */
const emoji = v.nullable(emojiOrEmpty);
/** The public interface's TranslationLanguage, the type of a Space's `language` (the same list translations take). */
const language = v.picklist(translationLanguages, 'must be a language code such as en, fr or pt-br');
const editMode = v.picklist(['live', 'locked'], 'must be live or locked');

export const getSpaceQuery = v.object({ shareKey: v.optional(v.pipe(v.string(), v.maxLength(200, 'must be at most 200 characters'))) });

/** Body of POST /orgs/{organizationId}/spaces (createSpace in the public interface). */
export const createSpaceBody = v.strictObject({
  title: v.optional(title),
  emoji: v.optional(emoji),
  parent: v.optional(id),
  language: v.optional(language),
  editMode: v.optional(editMode),
  empty: v.optional(v.boolean('must be a boolean')),
});

export const updateSpaceBody = partialBody({
    editMode: v.optional(editMode),
    title: v.optional(title),
    defaultLevel: v.optional(defaultLevel),
    language: v.optional(language),
    mergeRules: v.optional(mergeRules),
    emoji: v.optional(emoji),
  });

export const moveSpaceBody = moveContentBody;

/** A space moves to another organization, into a collection, or both. */
export const transferSpaceBody = v.pipe(
  v.strictObject({
    organization: v.optional(id),
    collection: v.optional(id),
  }),
  v.check((b) => b.organization !== undefined || b.collection !== undefined, 'must set organization, collection or both'),
);

export const listQuery = v.object(listQueryEntries);
