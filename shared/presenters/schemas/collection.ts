import * as v from 'valibot';
import { defaultLevelSchema, urlSchema } from './common.ts';
import { maxChars } from '../../http/string-length.ts';

/** Collection (spec 2.6). */
export const collectionSchema = v.object({
  object: v.literal('collection'),
  id: v.string(),
  title: v.pipe(v.string(), maxChars(50)),
  description: v.optional(v.pipe(v.string(), maxChars(100))),
  organization: v.string(),
  parent: v.optional(v.string()),
  defaultLevel: defaultLevelSchema,
  urls: v.object({ location: urlSchema, app: urlSchema }),
  permissions: v.object({ view: v.boolean(), admin: v.boolean(), viewInviteLinks: v.boolean(), create: v.boolean() }),
});
export type CollectionOutput = v.InferOutput<typeof collectionSchema>;
