import * as v from 'valibot';
import { timestampSchema, urlSchema } from './common.ts';

/** OpenAPISpecVersion (public interface, beyond spec 4.6). */
export const openAPISpecVersionSchema = v.object({
  object: v.literal('openapi-spec-version'),
  id: v.string(),
  createdAt: timestampSchema,
  url: urlSchema,
  urls: v.object({ location: urlSchema }),
});
export type OpenAPISpecVersionOutput = v.InferOutput<typeof openAPISpecVersionSchema>;

/**
 * OpenAPISpecContent. `filesystem` is the list of files GitBook's own renderer reads
 * (its openapi-parser's Filesystem): here one entry, the processed document
 * (docs/decisions.md). `urls.public` is null for a private spec.
 */
export const openAPISpecContentSchema = v.object({
  filesystem: v.array(v.object({
    dir: v.string(),
    isEntrypoint: v.boolean(),
    references: v.array(v.string()),
    filename: v.string(),
    specification: v.record(v.string(), v.unknown()),
  })),
  urls: v.object({ source: urlSchema, public: v.nullable(urlSchema) }),
});
export type OpenAPISpecContentOutput = v.InferOutput<typeof openAPISpecContentSchema>;

/** OpenAPISpecRawContent: the source text exactly as submitted or fetched. */
export const openAPISpecRawContentSchema = v.object({
  text: v.string(),
  format: v.picklist(['json', 'yaml']),
});
