import * as v from 'valibot';
import { changeRequestStatuses } from '../../db/entities/change-request.ts';
import { countSchema, richDocumentSchema, timestampSchema, urlSchema } from './common.ts';
import { userSchema } from './user.ts';
import { maxChars } from '../../http/string-length.ts';

/** ChangeRequest (spec 2.9). */
export const changeRequestSchema = v.object({
  object: v.literal('change-request'),
  id: v.string(),
  /** Incremental per space. */
  number: v.pipe(v.number(), v.integer(), v.minValue(1)),
  status: v.picklist(changeRequestStatuses),
  subject: v.pipe(v.string(), maxChars(100)),
  description: v.optional(richDocumentSchema),
  createdBy: userSchema,
  createdAt: timestampSchema,
  updatedAt: timestampSchema,
  mergedBy: v.optional(userSchema),
  mergedAt: v.optional(timestampSchema),
  space: v.string(),
  revision: v.string(),
  revisionInitial: v.string(),
  revisionMergedAncestor: v.optional(v.string()),
  revisionMerged: v.optional(v.string()),
  comments: countSchema,
  outdated: v.boolean(),
  conversationsIssuesCluster: v.optional(v.string()),
  urls: v.object({ app: urlSchema, location: urlSchema }),
});
export type ChangeRequestOutput = v.InferOutput<typeof changeRequestSchema>;

/** POST .../merge and POST .../update (spec 4.4). */
export const changeRequestMergeResultSchema = v.object({ revision: v.string(), result: v.literal('merge') });
export const changeRequestUpdateResultSchema = v.object({ revision: v.string(), result: v.literal('update') });

/** GET .../pdf (spec 4.4): a temporary download URL. */
export const pdfExportSchema = v.object({ url: urlSchema });
