import * as v from 'valibot';
import { urlSchema } from './common.ts';
import { organizationSchema } from './organization.ts';
import { maxChars, minChars } from '../../http/string-length.ts';

const blockTitle = v.pipe(v.string(), minChars(2), maxChars(40));

/** An integration's block (spec 2.13): a UI component, optionally unfurling URLs. */
export const integrationBlockSchema = v.object({
  id: v.string(),
  title: blockTitle,
  description: v.optional(v.string()),
  icon: v.optional(v.string()),
  urlUnfurl: v.optional(v.array(v.string())),
  markdown: v.optional(v.object({ codeblock: v.string(), body: v.string() })),
});

/** An integration's content source (spec 2.13), configured through one of its components. */
export const integrationContentSourceSchema = v.object({
  id: v.string(),
  title: blockTitle,
  description: v.optional(v.string()),
  icon: v.optional(v.string()),
  configuration: v.object({ componentId: v.string() }),
});

const configurationSchema = v.object({
  properties: v.optional(v.record(v.string(), v.looseObject({}))),
  required: v.optional(v.array(v.string())),
});

/**
 * Integration (spec 2.13). `urls.publicContentEndpoint` equals `publicEndpoint` (the service
 * serves no separate content origin); `signingSecrets` only for the owner's admins.
 */
export const integrationSchema = v.object({
  object: v.literal('integration'),
  name: v.pipe(v.string(), v.regex(/^[a-zA-Z0-9-_.]+$/)),
  version: v.pipe(v.number(), v.integer()),
  title: v.string(),
  description: v.string(),
  summary: v.optional(v.string()),
  previewImages: v.array(urlSchema),
  target: v.string(),
  verified: v.boolean(),
  visibility: v.string(),
  scopes: v.array(v.string()),
  categories: v.array(v.string()),
  blocks: v.array(integrationBlockSchema),
  contentSources: v.array(integrationContentSourceSchema),
  configurations: v.object({ account: v.optional(configurationSchema), space: v.optional(configurationSchema), site: v.optional(configurationSchema) }),
  externalLinks: v.array(v.object({ url: urlSchema, label: v.string() })),
  owner: organizationSchema,
  urls: v.object({
    location: urlSchema,
    icon: v.optional(urlSchema),
    app: urlSchema,
    assets: urlSchema,
    publicEndpoint: urlSchema,
    publicContentEndpoint: urlSchema,
  }),
  permissions: v.object({ admin: v.boolean() }),
  contentSecurityPolicy: v.optional(v.union([v.string(), v.record(v.string(), v.string())])),
  signingSecrets: v.optional(v.object({ integration: v.string() })),
});
export type IntegrationOutput = v.InferOutput<typeof integrationSchema>;
