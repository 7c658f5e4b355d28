import * as v from 'valibot';
import { id, listQueryEntries, order, storedSize } from '../../shared/http/schemas.ts';
export { organizationParams } from '../../shared/http/schemas.ts';
import { clusterStatuses } from '../../shared/db/entities/conversation.ts';
import { charCount, maxChars } from '../../shared/http/string-length.ts';

/** Path parameters of the `conversations` group. */
export const pathParams = v.partial(v.object({
  conversationId: id,
  issueId: id,
  organizationId: id,
}));

export const conversationParams = v.object({ organizationId: id, conversationId: id });
export const issueParams = v.object({ organizationId: id, issueId: id });

/** Limits of an ingested conversation (one item of at most 400 KB in DynamoDB). */
export const MAX_PARTS = 100;
export const MAX_PART_BODY = 20_000;
export const MAX_TOTAL_BODY = 200_000;

const text = (max: number) => v.pipe(v.string('must be a string'), maxChars(max));

const part = v.strictObject({
  type: v.literal('message', 'must be "message"'),
  role: v.pipe(v.string('must be a string'), v.trim(), v.nonEmpty('must not be empty'), maxChars(50)),
  body: text(MAX_PART_BODY),
});

export const ingestConversationBody = v.strictObject({
  /** The caller's id of the conversation: ingestion is idempotent by it. */
  id: v.pipe(v.string('must be a string'), v.maxLength(100, 'must be 1 to 100 letters, digits or . _ : -'), v.regex(/^[A-Za-z0-9._:-]{1,100}$/, 'must be 1 to 100 letters, digits or . _ : -')),
  metadata: v.optional(v.strictObject({
    url: v.optional(v.pipe(v.string('must be a string'), v.maxLength(2048, 'must be at most 2048 characters'), v.url('must be a URL'))),
    attributes: v.optional(v.pipe(
      v.record(text(100), text(1000), 'must be an object of strings'),
      v.maxEntries(50, 'must have at most 50 entries'),
    )),
    createdAt: v.optional(v.pipe(v.string('must be a string'), v.isoTimestamp('must be an ISO 8601 date-time'))),
  })),
  subject: v.optional(text(256)),
  parts: v.pipe(
    v.array(part, 'must be an array of parts'),
    v.minLength(1, 'must hold at least one part'),
    v.maxLength(MAX_PARTS, `must hold at most ${MAX_PARTS} parts`),
    v.check((parts) => parts.reduce((n, p) => n + charCount(p.body), 0) <= MAX_TOTAL_BODY, `must total at most ${MAX_TOTAL_BODY} characters`),
    // Characters are not bytes: 200,000 emoji are 800 KB, twice what one item holds.
    storedSize(),
  ),
});

export const listClustersQuery = v.object({
  ...listQueryEntries,
  order,
  /** The sort property: only `updatedAt` (the public interface names no other). */
  sort: v.optional(v.picklist(['updatedAt'], 'must be updatedAt'), 'updatedAt'),
  /** Cluster status; every cluster is `active` (nothing archives one yet). */
  status: v.optional(v.picklist(clusterStatuses, `must be one of ${clusterStatuses.join(', ')}`)),
});

export const listConversationsQuery = v.object({
  ...listQueryEntries,
  /** A conversation `source` (exact). */
  source: v.optional(text(100)),
});

export const listIssuesQuery = v.object({
  ...listQueryEntries,
  /** A cluster id. */
  cluster: v.optional(id),
  /** A conversation id. */
  conversation: v.optional(id),
});
