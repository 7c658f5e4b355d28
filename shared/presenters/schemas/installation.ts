import * as v from 'valibot';
import { timestampSchema, urlSchema } from './common.ts';
import { siteSchema } from './site.ts';
import { spaceSchema } from './space.ts';

/**
 * Installation (spec 2.13) of an integration in an organization. `urls.publicContentEndpoint`
 * equals `publicEndpoint` (no separate content origin).
 */
export const installationSchema = v.object({
  object: v.literal('integration-installation'),
  id: v.string(),
  integration: v.string(),
  status: v.literal('active'),
  space_selection: v.picklist(['all', 'selected']),
  site_selection: v.picklist(['all', 'selected']),
  spaces: v.pipe(v.number(), v.integer()),
  configuration: v.record(v.string(), v.unknown()),
  createdAt: timestampSchema,
  updatedAt: timestampSchema,
  urls: v.object({ location: urlSchema, app: urlSchema, publicEndpoint: urlSchema, publicContentEndpoint: urlSchema }),
  externalIds: v.array(v.string()),
  target: v.object({ organization: v.string() }),
});
export type InstallationOutput = v.InferOutput<typeof installationSchema>;

const onContent = {
  integration: v.string(),
  installation: v.string(),
  status: v.literal('active'),
  configuration: v.record(v.string(), v.unknown()),
  externalIds: v.array(v.string()),
  urls: v.object({ location: urlSchema, publicEndpoint: urlSchema, publicContentEndpoint: urlSchema }),
};

/** An installation reaching a space: `space` is its id, or the space itself when `extended`. */
export const spaceInstallationSchema = v.object({ ...onContent, space: v.union([v.string(), spaceSchema]) });
/** An installation reaching a site: `site` is its id, or the site itself when `extended`. */
export const siteInstallationSchema = v.object({ ...onContent, site: v.union([v.string(), siteSchema]) });
