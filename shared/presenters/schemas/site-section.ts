import * as v from 'valibot';
import { urlSchema } from './common.ts';
import { siteSpaceSchema } from './site-space.ts';
import { maxChars, minChars } from '../../http/string-length.ts';

/** SiteSection (spec 2.12) with its site spaces in order. */
export const siteSectionSchema = v.object({
  object: v.literal('site-section'),
  id: v.string(),
  title: v.pipe(v.string(), minChars(2), maxChars(128)),
  description: v.optional(v.pipe(v.string(), maxChars(256))),
  default: v.boolean(),
  draft: v.boolean(),
  path: v.pipe(v.string(), v.minLength(1), v.maxLength(100)),
  condition: v.optional(v.pipe(v.string(), v.maxLength(1024))),
  sectionGroup: v.optional(v.string()),
  siteSpaces: v.array(siteSpaceSchema),
  urls: v.object({ published: v.optional(urlSchema) }),
  icon: v.optional(v.pipe(v.string(), v.maxLength(50))),
});
export type SiteSectionOutput = v.InferOutput<typeof siteSectionSchema>;
