import * as v from 'valibot';
import { MAX_CURSOR_LENGTH } from './cursor.ts';
import { EMOJI_MAX_LENGTH, isEmoji } from '../content/emoji.ts';
import { maxChars } from './string-length.ts';

/** Shared valibot pieces used by every group's schemas.ts. */

export const roles = ['admin', 'create', 'review', 'edit', 'comment', 'read'] as const;
export type Role = (typeof roles)[number];

export const role = v.picklist(roles, `must be one of ${roles.join(', ')}`);
export const nullableRole = v.nullable(role);

/**
 * A user-controlled value stored inside one DynamoDB item (at most 400 KB per item, names
 * and other attributes included): its JSON must fit in MAX_STORED_FIELD_BYTES, checked up
 * front so a too-large value is a 400 naming the field, never a failed write.
 */
export const MAX_STORED_FIELD_BYTES = 300 * 1024;
const storedSizeChecks = new WeakSet<object>();
export function storedSize<T>(max = MAX_STORED_FIELD_BYTES) {
  const action = v.check<T, string>(
    (value) => Buffer.byteLength(JSON.stringify(value) ?? '') <= max,
    `must be at most ${Math.floor(max / 1024)} KB once serialized`,
  );
  storedSizeChecks.add(action);
  return action;
}
/** Whether a pipe action is a storedSize check (test/support/hostile/schema-bounds.ts). */
export const isStoredSizeCheck = (action: unknown): boolean => storedSizeChecks.has(action as object);

/** An emoji (shared/content/emoji.ts): the character (🎉) or its code points (1f389). */
export const emoji = v.pipe(
  v.string('must be a string'),
  v.maxLength(EMOJI_MAX_LENGTH, `must be at most ${EMOJI_MAX_LENGTH} characters`),
  v.check(isEmoji, 'must be an emoji such as 🎉 or its code points such as 1f389'),
);
/** An emoji field that an empty string clears (how the public interface presents "no emoji"). */
export const emojiOrEmpty = v.pipe(
  v.string('must be a string'),
  v.maxLength(EMOJI_MAX_LENGTH, `must be at most ${EMOJI_MAX_LENGTH} characters`),
  v.check((value) => value === '' || isEmoji(value), 'must be an emoji such as 🎉, its code points such as 1f389, or empty'),
);

/**
 * A title is one line: no line breaks or other control characters, which would end a
 * SUMMARY.md entry or a heading on Git export and start another, or break a header or a log
 * line. Checked after trimming (surrounding whitespace is dropped, as before).
 */
export const oneLine = v.check<string, string>((value) => !/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/.test(value), 'must not contain line breaks or control characters');

export const id = v.pipe(v.string('must be a string'), v.nonEmpty('must not be empty'), v.maxLength(100, 'must be at most 100 characters'));

/**
 * Path parameters of the resources several groups route under (organizations, spaces,
 * change requests), defined once here; a group's own live in functions/<group>/schemas.ts.
 */
/**
 * An adaptive-content condition (an expression over visitor claims), wherever the public
 * interface takes one: site spaces, sections, header links, pages (accepted, not kept).
 */
export const conditionExpression = v.pipe(v.string('must be a string'), v.maxLength(1024, 'must be at most 1024 characters'));

export const organizationParams = v.object({ organizationId: id });
export const spaceParams = v.object({ spaceId: id });
export const changeRequestParams = v.object({ spaceId: id, changeRequestId: id });

/** Query booleans: "true"/"false" strings. */
export const queryBoolean = v.pipe(
  v.picklist(['true', 'false'], 'must be true or false'),
  v.transform((s) => s === 'true'),
);

export const DEFAULT_PAGE_SIZE = 50;
export const MAX_PAGE_SIZE = 1000;

export const listLimit = v.pipe(
  v.string(),
  v.regex(/^\d+$/, `must be an integer from 1 to ${MAX_PAGE_SIZE}`),
  v.transform(Number),
  v.minValue(1, `must be an integer from 1 to ${MAX_PAGE_SIZE}`),
  v.maxValue(MAX_PAGE_SIZE, `must be an integer from 1 to ${MAX_PAGE_SIZE}`),
);

/** `page` and `limit` of every list operation; the cursor itself is checked by shared/http/cursor.ts. */
export const listQueryEntries = {
  page: v.optional(v.pipe(v.string(), v.nonEmpty('must not be empty'), v.maxLength(MAX_CURSOR_LENGTH, 'is not a valid page cursor'))),
  limit: v.optional(listLimit, String(DEFAULT_PAGE_SIZE)),
};
export const listQuery = v.object(listQueryEntries);

/**
 * A body of optional fields (PATCH-like) that must set at least one of them, with the
 * message naming the fields. Unknown fields are refused.
 */
export function partialBody<const T extends v.ObjectEntries>(entries: T) {
  const schema = v.strictObject(entries);
  return v.pipe(
    schema,
    v.check((body: v.InferOutput<typeof schema>) => Object.keys(body).length > 0, `must set at least one of ${Object.keys(entries).join(', ')}`),
  );
}

/** `query` of the search operations: required, at most 512 characters (missing and empty both answer "query: is required"). */
export const searchQuery = v.object({
  ...listQueryEntries,
  query: v.pipe(
    v.optional(v.string('must be a string'), ''),
    v.nonEmpty('is required'),
    maxChars(512),
  ),
});

export const order = v.optional(v.picklist(['asc', 'desc'], 'must be asc or desc'), 'desc');

/** Rich document (spec 2.1 item 6). */
export const documentBlock: v.GenericSchema = v.looseObject({
  object: v.string('must be a string'),
  type: v.optional(v.string('must be a string')),
  key: v.optional(v.string('must be a string')),
  isVoid: v.optional(v.boolean('must be a boolean')),
  data: v.optional(v.record(v.string(), v.unknown())),
  nodes: v.optional(v.array(v.lazy(() => documentBlock))),
  leaves: v.optional(v.array(v.unknown())),
});
/** Largest rich document stored in an item (change request description, instructions). */
export const MAX_RICH_DOCUMENT_BYTES = 256 * 1024;
export const richDocument = v.pipe(
  v.looseObject({
    object: v.literal('document', 'must be "document"'),
    data: v.optional(v.looseObject({ schemaVersion: v.optional(v.pipe(v.number('must be a number'), v.integer('must be an integer'))) })),
    nodes: v.array(documentBlock, 'must be an array of blocks'),
  }),
  storedSize(MAX_RICH_DOCUMENT_BYTES),
);

export const MAX_MERGE_RULES = 50;
export const MAX_RULE_USERS = 100;
const reviewerRule = v.object({
  rule: v.picklist(['require_specific_reviewers', 'require_one_of_specific_reviewers', 'allow_bypass']),
  users: v.pipe(v.array(id, 'must be an array of user ids'), v.maxLength(MAX_RULE_USERS, `must hold at most ${MAX_RULE_USERS} user ids`)),
});
const simpleRule = v.object({
  rule: v.picklist([
    'require_at_least_one_review', 'require_at_least_one_approved_review', 'require_all_reviews_approved',
    'require_agent_review', 'require_up_to_date_change_request', 'require_change_request_subject',
    'require_change_request_description', 'require_author_to_merge',
  ]),
});
const customRule = v.object({
  rule: v.literal('custom'),
  expression: v.pipe(v.string('must be a string'), v.maxLength(1024, 'must be at most 1024 characters')),
  message: v.optional(v.pipe(v.string('must be a string'), maxChars(1024))),
});
const mergeRuleList = v.object({
  type: v.literal('rules'),
  rules: v.pipe(
    v.array(v.union([reviewerRule, simpleRule, customRule], 'must be a known merge rule'), 'must be an array of rules'),
    v.maxLength(MAX_MERGE_RULES, `must hold at most ${MAX_MERGE_RULES} rules`),
  ),
});

/** Merge rules of an organization: `rules`, `none`, or (as the interface shows) `inherit`. */
export const mergeRules = v.variant('type', [
  v.object({ type: v.literal('inherit') }),
  v.object({ type: v.literal('none') }),
  mergeRuleList,
], 'must be {type: inherit}, {type: none} or {type: rules, rules: [...]}');

/** `defaultLevel`: a role, null (no access by default) or "inherit" (from the parent). */
export const defaultLevel = v.union([role, v.null(), v.literal('inherit')], `must be one of ${roles.join(', ')}, inherit or null`);
export type DefaultLevel = Role | null | 'inherit';

const contentPointer = v.variant('type', [
  v.object({ type: v.literal('space'), space: id }),
  v.object({ type: v.literal('collection'), collection: id }),
], 'must be {type: space, space} or {type: collection, collection}');

/** `position` of space and collection moves: exactly one of before/after a sibling. */
export const contentPosition = v.union([
  v.strictObject({ before: contentPointer }),
  v.strictObject({ after: contentPointer }),
], 'must be {before: <pointer>} or {after: <pointer>}');
export type ContentPosition = v.InferOutput<typeof contentPosition>;

/** Body of the space and collection move operations: a new parent (null: root) and/or position. */
export const moveContentBody = v.pipe(
  v.strictObject({
    parent: v.optional(v.nullable(id)),
    position: v.optional(contentPosition),
  }),
  v.check((b) => b.parent !== undefined || b.position !== undefined, 'must set parent, position or both'),
);
