import * as v from 'valibot';
import { id, listQueryEntries, queryBoolean } from '../../shared/http/schemas.ts';

export const spaceParams = v.object({ spaceId: id });
export const pageParams = v.object({ spaceId: id, pageId: id });
export const fileParams = v.object({ spaceId: id, fileId: id });

/** `metadata` (default true: false omits git metadata) and `computed` (default true). */
const contentFlags = {
  metadata: v.optional(queryBoolean, 'true'),
  computed: v.optional(queryBoolean, 'true'),
};

export const contentQuery = v.object(contentFlags);
export const filesQuery = v.object({ ...listQueryEntries, ...contentFlags });
export const pageQuery = v.object({
  ...contentFlags,
  format: v.optional(v.picklist(['document', 'markdown'], 'must be document or markdown'), 'document'),
  evaluated: v.optional(v.picklist(['true', 'false', 'deterministic-only'], 'must be true, false or deterministic-only'), 'false'),
});

export const changeRequestParams = v.object({ spaceId: id, changeRequestId: id });
export const revisionParams = v.object({ spaceId: id, revisionId: id });
export const pagePathParams = v.object({ spaceId: id, pagePath: v.pipe(v.string(), v.minLength(1, 'must not be empty'), v.maxLength(2000, 'must be at most 2000 characters')) });


export { contentChangesBody } from '../../shared/content/change-schema.ts';
