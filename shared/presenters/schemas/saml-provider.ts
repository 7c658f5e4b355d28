import * as v from 'valibot';
import { nullableRoleSchema, timestampSchema, urlSchema } from './common.ts';
import { teamSchema } from './team.ts';

/** SAMLProvider (spec 2.14) with the service provider's own addresses under `service`. */
export const samlProviderSchema = v.object({
  object: v.literal('saml-provider'),
  id: v.string(),
  label: v.string(),
  /** Empty while the provider is pending. */
  ssoURL: v.union([urlSchema, v.literal('')]),
  entityID: v.string(),
  certificate: v.string(),
  defaultTeam: v.optional(teamSchema),
  defaultRole: nullableRoleSchema,
  createdAt: timestampSchema,
  status: v.picklist(['active', 'pending']),
  service: v.object({ acsURL: urlSchema, startURL: urlSchema, entityID: urlSchema }),
  urls: v.object({ location: urlSchema }),
});
export type SAMLProviderOutput = v.InferOutput<typeof samlProviderSchema>;

/** SSO login option (spec 2.14). */
export const ssoLoginOptionSchema = v.object({ id: v.string(), label: v.string(), startURL: urlSchema });

/** GET /orgs/{organizationId}/sso. */
export const ssoLoginOptionsSchema = v.object({ items: v.array(ssoLoginOptionSchema) });
