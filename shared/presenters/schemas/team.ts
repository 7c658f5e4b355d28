import * as v from 'valibot';
import { countSchema, timestampSchema } from './common.ts';

/** Team (spec 2.5). */
export const teamSchema = v.object({
  object: v.literal('team'),
  id: v.string(),
  title: v.string(),
  members: countSchema,
  spaces: countSchema,
  createdAt: timestampSchema,
  permissions: v.object({ admin: v.boolean(), view: v.boolean() }),
});
export type TeamOutput = v.InferOutput<typeof teamSchema>;
