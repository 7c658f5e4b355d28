import * as v from 'valibot';
import { timestampSchema, urlSchema } from './common.ts';

/**
 * OpenAPISpec (spec 2.11). `lastProcessedErrorCount` (beyond the spec) counts every error of
 * the last processing, `lastProcessedErrors` keeps the first ones; `urls.published` only for
 * public specs.
 */
export const openAPISpecSchema = v.object({
  object: v.literal('openapi-spec'),
  id: v.string(),
  createdAt: timestampSchema,
  updatedAt: timestampSchema,
  slug: v.pipe(v.string(), v.minLength(1), v.maxLength(100), v.regex(/^[a-zA-Z0-9]+(?:-[a-zA-Z0-9]+)*$/)),
  sourceURL: v.optional(v.pipe(urlSchema, v.maxLength(2048))),
  processingState: v.string(),
  visibility: v.picklist(['private', 'public']),
  lastVersion: v.optional(v.string()),
  lastProcessedAt: v.optional(timestampSchema),
  lastProcessErrorCode: v.optional(v.string()),
  lastProcessedErrors: v.array(v.object({ message: v.string(), code: v.optional(v.string()) })),
  lastProcessedErrorCount: v.pipe(v.number(), v.integer()),
  permissions: v.object({ view: v.boolean(), edit: v.boolean() }),
  urls: v.object({ location: urlSchema, app: urlSchema, published: v.optional(urlSchema) }),
});
export type OpenAPISpecOutput = v.InferOutput<typeof openAPISpecSchema>;
