import * as v from 'valibot';
import { defaultLevel, id, listQueryEntries, moveContentBody, oneLine, partialBody, queryBoolean } from '../../shared/http/schemas.ts';
export { organizationParams } from '../../shared/http/schemas.ts';

export const collectionParams = v.object({ collectionId: id });

const title = v.pipe(v.string('must be a string'), v.trim(), v.nonEmpty('must not be empty'), v.maxLength(50, 'must be at most 50 characters'), oneLine);
const description = v.pipe(v.string('must be a string'), v.maxLength(100, 'must be at most 100 characters'));

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
