import * as v from 'valibot';
import { timestampSchema, urlSchema } from './common.ts';
import { maxChars } from '../../http/string-length.ts';

/** ShareLink (spec 2.12): `urls.published` carries the secret (only while it can be opened). */
export const shareLinkSchema = v.object({
  object: v.literal('share-link'),
  id: v.string(),
  createdAt: timestampSchema,
  name: v.optional(v.pipe(v.string(), maxChars(50))),
  active: v.optional(v.boolean()),
  urls: v.object({ published: v.optional(urlSchema) }),
});
export type ShareLinkOutput = v.InferOutput<typeof shareLinkSchema>;
