import * as v from 'valibot';
import { urlSchema } from './common.ts';
import { siteSchema } from './site.ts';
import { siteStructureSchema } from './site-section-group.ts';
import { siteCustomizationSchema } from './site-customization.ts';

/** The published site profile (spec 2.12, `published-content-site`). */
export const publishedSiteSchema = v.object({
  object: v.literal('published-content-site'),
  site: siteSchema,
  structure: siteStructureSchema,
  customizations: v.object({
    site: siteCustomizationSchema,
    /** Keyed by site space id. */
    siteSpaces: v.record(v.string(), siteCustomizationSchema),
  }),
  scripts: v.array(v.object({ script: urlSchema, contentSecurityPolicy: v.optional(v.string()), cookies: v.boolean() })),
});
export type PublishedSiteOutput = v.InferOutput<typeof publishedSiteSchema>;
