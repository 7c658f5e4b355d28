import * as v from 'valibot';
import { conditionExpression, emojiOrEmpty, id, oneLine } from '../http/schemas.ts';
import { maxChars } from '../http/string-length.ts';
import { documentLimitsCheck, pageDocumentLimits } from './limits.ts';
import { markdownPrecheck } from './markdown/limits.ts';
import { egressUrl } from '../net/url-schema.ts';

/**
 * The body of POST /spaces/{spaceId}/change-requests/{changeRequestId}/content (the public
 * interface's updateChangeRequestContent): 1 to 50 changes applied atomically.
 */
const slug = v.pipe(v.string('must be a string'), v.regex(/^[a-z0-9]+(?:[-_.][a-z0-9]+)*$/i, 'must be letters and digits separated by - _ or .'), v.maxLength(100, 'must be at most 100 characters'));

/**
 * Page metadata that insert_page and update_page may set (RevisionPageUpdate). `condition`
 * (the page's adaptive-content condition) is accepted and stored nowhere: pages have no
 * visibility condition here (docs/decisions.md, "Content changes: a page's `condition`").
 */
const pageMetadata = {
  title: v.optional(v.pipe(v.string('must be a string'), v.trim(), v.minLength(1, 'must not be empty'), maxChars(250), oneLine)),
  slug: v.optional(slug),
  emoji: v.optional(emojiOrEmpty),
  icon: v.optional(v.pipe(v.string('must be a string'), v.maxLength(50, 'must be at most 50 characters'))),
  description: v.optional(v.pipe(v.string('must be a string'), maxChars(1000))),
  hidden: v.optional(v.boolean('must be a boolean')),
  noIndex: v.optional(v.boolean('must be a boolean')),
  noRobotsIndex: v.optional(v.boolean('must be a boolean')),
  condition: v.optional(conditionExpression),
};

/** Page markdown: size and same-line nesting are checked here, the rest once parsed (markdown/limits.ts). */
const markdown = v.pipe(
  v.string('must be a string'),
  v.rawCheck(({ dataset, addIssue }) => {
    const issue = dataset.typed ? markdownPrecheck(dataset.value) : undefined;
    if (issue) addIssue({ message: issue });
  }),
);

/**
 * A rich page document, bounded in depth and nodes before anything walks it (limits.ts).
 * The shape check is shallow, so it can run first (and the union reports the limit).
 */
const pageDocument = v.pipe(v.looseObject({ object: v.literal('document'), nodes: v.array(v.unknown()) }), documentLimitsCheck(pageDocumentLimits));

/** A page document: markdown (the exchange format), a rich document, or nothing. */
const documentInput = v.union([
  v.strictObject({ markdown }),
  v.strictObject({ document: pageDocument }),
  v.strictObject({}),
], 'must be {markdown}, {document} or {}');

const position = v.pipe(v.number('must be a number'), v.integer('must be an integer'), v.minValue(0, 'must be 0 or more'));
const ref = v.pipe(v.string('must be a string'), v.regex(/^[A-Za-z0-9_-]{1,64}$/, 'must be 1 to 64 letters, digits, - or _'));

const fileInput = v.pipe(
  v.strictObject({
    ref: v.optional(ref),
    name: v.pipe(v.string('must be a string'), v.minLength(1, 'must not be empty'), maxChars(256)),
    contentType: v.optional(v.pipe(v.string(), v.regex(/^[\w.+-]+\/[\w.+-]+$/, 'must be a MIME type'))),
    base64: v.optional(v.pipe(v.string('must be a string'), v.base64('must be base64'), v.maxLength(1_400_000, 'must decode to at most 1 MB'))),
    url: v.optional(egressUrl),
  }),
  v.check((f) => (f.base64 === undefined) !== (f.url === undefined), 'must set exactly one of base64 and url'),
  v.check((f) => f.base64 === undefined || f.contentType !== undefined, 'contentType is required with base64'),
);

export const contentChange = v.variant('operation', [
  v.strictObject({ operation: v.literal('insert_page'), into: v.optional(id), at: v.optional(position), ref: v.optional(ref), document: documentInput, ...pageMetadata }),
  v.strictObject({ operation: v.literal('update_page'), page: id, into: v.optional(v.nullable(id)), at: v.optional(position), document: v.optional(documentInput), ...pageMetadata }),
  v.strictObject({ operation: v.literal('delete_page'), page: id }),
  v.strictObject({ operation: v.literal('revert_page'), page: id, revision: v.optional(id) }),
  v.strictObject({ operation: v.literal('insert_files'), files: v.pipe(v.array(fileInput), v.minLength(1, 'must hold 1 to 20 files'), v.maxLength(20, 'must hold 1 to 20 files')) }),
], 'must be an insert_page, update_page, delete_page, revert_page or insert_files change');
export type ContentChange = v.InferOutput<typeof contentChange>;

export const contentChangesBody = v.strictObject({
  changes: v.pipe(v.array(contentChange, 'must be an array of changes'), v.minLength(1, 'must hold 1 to 50 changes'), v.maxLength(50, 'must hold 1 to 50 changes')),
});
