import * as v from 'valibot';
import { siteTypes, siteVisibilities } from '../../db/entities/site.ts';
import { defaultLevelSchema, timestampSchema, urlSchema } from './common.ts';
import { maxChars, minChars } from '../../http/string-length.ts';

/** What the caller may do with a site (public `Site.permissions`). */
const sitePermissionsSchema = v.object({
  view: v.boolean(), access: v.boolean(), edit: v.boolean(), create: v.boolean(), admin: v.boolean(),
  installIntegration: v.boolean(), viewAdaptiveSchema: v.boolean(), editAdaptiveSchema: v.boolean(),
});

/**
 * Site (spec 2.12, public `Site`). `defaultLevel` is always `inherit`: a site has no role of
 * its own, its audience is its visibility and members keep their organization role.
 * `urls.published` only once published; `basename` and `proxy` only when set.
 */
export const siteSchema = v.object({
  object: v.literal('site'),
  id: v.string(),
  type: v.picklist(siteTypes),
  appliedType: v.picklist(siteTypes),
  title: v.pipe(v.string(), minChars(2), maxChars(128)),
  basename: v.optional(v.pipe(v.string(), v.minLength(1), v.maxLength(100))),
  proxy: v.optional(v.object({ origin: v.string(), target: v.string() })),
  visibility: v.picklist(siteVisibilities),
  defaultLevel: defaultLevelSchema,
  published: v.boolean(),
  siteSpaces: v.pipe(v.number(), v.integer()),
  createdAt: timestampSchema,
  adaptiveContent: v.object({ enabled: v.boolean() }),
  ads: v.object({ status: v.literal('pending'), submittable: v.boolean() }),
  agentsContext: v.picklist(['excluded', 'included']),
  features: v.array(v.object({ id: v.string(), plan: v.picklist(siteTypes), frozen: v.boolean(), customizations: v.optional(v.array(v.string())) })),
  permissions: sitePermissionsSchema,
  urls: v.object({ location: urlSchema, app: urlSchema, preview: urlSchema, published: v.optional(urlSchema) }),
});
export type SiteOutput = v.InferOutput<typeof siteSchema>;

/** Adaptive schema (spec 2.12): the stored visitor-claims JSON Schema and when it changed. */
export const siteAdaptiveSchemaSchema = v.object({
  object: v.literal('site-adaptive-schema'),
  jsonSchema: v.record(v.string(), v.unknown()),
  updatedAt: timestampSchema,
});

/** GET .../adaptive-schema/template-conditions. */
export const siteTemplateConditionsSchema = v.object({
  items: v.array(v.object({ description: v.string(), condition: v.string() })),
});
