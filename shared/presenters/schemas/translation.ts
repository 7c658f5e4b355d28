import * as v from 'valibot';
import { timestampSchema, urlSchema } from './common.ts';

const count = v.pipe(v.number(), v.minValue(0));

/** Translation (spec 2.14); `result` once a run produced the translated space. */
export const translationSchema = v.object({
  object: v.literal('translation'),
  id: v.string(),
  status: v.string(),
  source: v.object({ space: v.string(), language: v.string() }),
  language: v.string(),
  /** A rich document (spec 2.1 item 6) as stored. */
  instructions: v.optional(v.object({ object: v.literal('document'), data: v.record(v.string(), v.unknown()), nodes: v.array(v.unknown()) })),
  result: v.optional(v.object({ space: v.string(), revision: v.optional(v.string()), language: v.optional(v.string()) })),
  createdAt: timestampSchema,
  updatedAt: timestampSchema,
  stats: v.object({
    runs: count, totalWords: count, totalPages: count, totalDuration: count,
    latestRunDuration: count, latestPages: count, latestWords: count,
  }),
  permissions: v.object({ view: v.boolean(), edit: v.boolean() }),
  urls: v.object({ location: urlSchema }),
});
export type TranslationOutput = v.InferOutput<typeof translationSchema>;
