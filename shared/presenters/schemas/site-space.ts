import * as v from 'valibot';
import { urlSchema } from './common.ts';
import { spaceSchema } from './space.ts';

/**
 * SiteSpace (spec 2.12): the space as the caller sees it, its path in the site, `default`
 * for the space shown at the root (or of its section). `urls.published` once the site is.
 */
export const siteSpaceSchema = v.object({
  object: v.literal('site-space'),
  id: v.string(),
  path: v.pipe(v.string(), v.minLength(1), v.maxLength(100)),
  section: v.optional(v.string()),
  space: spaceSchema,
  title: v.string(),
  default: v.boolean(),
  condition: v.optional(v.pipe(v.string(), v.maxLength(1024))),
  draft: v.boolean(),
  hidden: v.boolean(),
  hasAdvancedCustomizationFeature: v.boolean(),
  urls: v.object({ published: v.optional(urlSchema) }),
});
export type SiteSpaceOutput = v.InferOutput<typeof siteSpaceSchema>;
