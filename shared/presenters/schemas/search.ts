import * as v from 'valibot';
import { urlSchema } from './common.ts';

/**
 * Search results (shared/content/search/space-search.ts and spaces-search.ts): the public
 * interface's SearchSectionResult, SearchPageResult and SearchSpaceResult.
 */
const scoreSchema = v.pipe(v.number(), v.minValue(0));
const resultTypeSchema = v.picklist(['page', 'section']);

export const searchSectionResultSchema = v.object({
  id: v.string(),
  title: v.string(),
  path: v.string(),
  score: scoreSchema,
  resultType: v.optional(resultTypeSchema),
  body: v.string(),
  urls: v.object({ app: urlSchema }),
});

export const searchPageResultSchema = v.object({
  id: v.string(),
  title: v.string(),
  description: v.string(),
  path: v.string(),
  score: scoreSchema,
  /** One-based position in the whole ranked result set. */
  rank: v.pipe(v.number(), v.integer(), v.minValue(1)),
  resultType: v.optional(resultTypeSchema),
  sections: v.optional(v.array(searchSectionResultSchema)),
  ancestors: v.array(v.object({ title: v.string() })),
  urls: v.object({ app: urlSchema }),
});

export const searchSpaceResultSchema = v.object({
  type: v.literal('space'),
  id: v.string(),
  title: v.string(),
  score: scoreSchema,
  pages: v.array(searchPageResultSchema),
});
