import * as v from 'valibot';
import { urlSchema } from './common.ts';

/** User (spec 2.2), embedded in members, change requests, comments, reviews. */
export const userSchema = v.object({
  object: v.literal('user'),
  id: v.string(),
  displayName: v.string(),
  email: v.string(),
  photoURL: v.optional(v.string()),
  urls: v.object({ location: urlSchema }),
});
export type UserOutput = v.InferOutput<typeof userSchema>;
