import * as v from 'valibot';
import { id, listQueryEntries } from '../../shared/http/schemas.ts';
export { organizationParams } from '../../shared/http/schemas.ts';

/** Path parameters of the `openapi` group (all operations). */
export const pathParams = v.partial(v.object({
  organizationId: id,
  specSlug: id,
  versionId: id,
}));

/** OpenAPISpecSlug (spec 2.11). */
export const slug = v.pipe(
  v.string('must be a string'),
  v.minLength(1, 'must not be empty'),
  v.maxLength(100, 'must be at most 100 characters'),
  v.regex(/^[a-zA-Z0-9]+(?:-[a-zA-Z0-9]+)*$/, 'must be letters and digits in words joined by single hyphens (^[a-zA-Z0-9]+(?:-[a-zA-Z0-9]+)*$)'),
);
export const specParams = v.object({ organizationId: id, specSlug: slug });
/** Reads and deletes take any slug-sized id: an impossible slug simply matches nothing. */
export const specLookupParams = v.object({ organizationId: id, specSlug: id });
export const versionParams = v.object({ organizationId: id, specSlug: id, versionId: id });

export const MAX_SOURCE_TEXT = 5 * 1024 * 1024;

const httpUrl = v.pipe(
  v.string('must be a string'),
  v.maxLength(2048, 'must be at most 2048 characters'),
  v.url('must be a URL'),
  v.check((s) => /^https?:\/\//i.test(s), 'must be an http or https URL'),
);

/** OpenAPISpecSource: `{url}` or inline `{text}`. */
export const source = v.union([
  v.strictObject({ url: httpUrl }),
  v.strictObject({
    text: v.pipe(v.string('must be a string'), v.minLength(1, 'must not be empty'), v.maxLength(MAX_SOURCE_TEXT, `must be at most ${MAX_SOURCE_TEXT} characters`)),
  }),
], 'must be {url: <http(s) URL>} or {text: <OpenAPI document>}');

export const listSpecsQuery = v.object(listQueryEntries);
export const createSpecBody = v.strictObject({ slug, source });
export const putSpecBody = v.strictObject({ source });
export const patchSpecBody = v.strictObject({
  visibility: v.picklist(['private', 'public'], 'must be private or public'),
});
