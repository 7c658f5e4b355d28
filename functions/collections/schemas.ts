import * as v from 'valibot';
import { defaultLevel, id, listQueryEntries, moveContentBody, oneLine, partialBody, queryBoolean } from '../../shared/http/schemas.ts';
export { organizationParams } from '../../shared/http/schemas.ts';
import { maxChars } from '../../shared/http/string-length.ts';

export const collectionParams = v.object({ collectionId: id });

const title = v.pipe(v.string('must be a string'), v.trim(), v.nonEmpty('must not be empty'), maxChars(50), oneLine);
const description = v.pipe(v.string('must be a string'), maxChars(100));

export const createCollectionBody = v.strictObject({
  title: v.optional(title),
  parent: v.optional(id),
});

export const updateCollectionBody = partialBody({
    title: v.optional(title),
    description: v.optional(description),
    defaultLevel: v.optional(defaultLevel),
  });

export const moveCollectionBody = moveContentBody;

export const transferCollectionBody = v.strictObject({ organization: id });

export const listCollectionsQuery = v.object({
  ...listQueryEntries,
  nested: v.optional(queryBoolean, 'true'),
});

export const listQuery = v.object(listQueryEntries);
