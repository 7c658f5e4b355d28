import * as v from 'valibot';
import { emoji, id, listQueryEntries, order } from '../../shared/http/schemas.ts';

/**
 * Path parameters of both scopes: /spaces/{spaceId}/comments/... (no `changeRequestId`) and
 * /spaces/{spaceId}/change-requests/{changeRequestId}/comments/... (an id or a number).
 */
const scopeEntries = { spaceId: id, changeRequestId: v.optional(id) };
export const scopeParams = v.object(scopeEntries);
export const commentParams = v.object({ ...scopeEntries, commentId: id });
export const replyParams = v.object({ ...scopeEntries, commentId: id, commentReplyId: id });

/** Largest comment or reply body: 100 KB of markdown (UTF-8 bytes). */
export const MAX_MARKDOWN_BYTES = 100 * 1024;

const markdown = v.pipe(
  v.string('must be a string'),
  v.nonEmpty('must not be empty (send body {} for an empty body)'),
  v.maxBytes(MAX_MARKDOWN_BYTES, 'must be at most 100 KB'),
);

/**
 * A comment body: `{markdown}` or the public interface's empty document `{}` (an empty body).
 * The interface's `{document}` variant is refused (markdown is the exchange format).
 */
const commentBody = v.strictObject({ markdown: v.optional(markdown) }, 'must be {markdown: string} or {}');

const reactionList = v.pipe(v.array(emoji, 'must be an array of emoji'), v.maxLength(50, 'must hold at most 50 emoji'));

const tableCell = v.strictObject({
  record: id,
  definition: id,
}, 'must be {record, definition}');

/** Body of POST comment: `body` required; `node` needs `page`, `tableCell` needs `node`. */
export const postCommentBody = v.pipe(
  v.strictObject({
    body: v.optional(commentBody),
    page: v.optional(id),
    node: v.optional(id),
    tableCell: v.optional(tableCell),
  }),
  v.forward(v.check((b) => b.body !== undefined, 'is required'), ['body']),
  v.forward(v.check((b) => b.node === undefined || b.page !== undefined, 'requires page'), ['node']),
  v.forward(v.check((b) => b.tableCell === undefined || b.node !== undefined, 'requires node (the table block)'), ['tableCell']),
);

const noOverlap = (b: { addedReactions?: string[]; removedReactions?: string[] }) =>
  !(b.removedReactions ?? []).some((e) => (b.addedReactions ?? []).includes(e));
const overlapMessage = 'must not name an emoji that addedReactions adds';

export const updateCommentBody = v.pipe(
  v.strictObject({
    resolved: v.optional(v.boolean('must be a boolean')),
    body: v.optional(commentBody),
    addedReactions: v.optional(reactionList),
    removedReactions: v.optional(reactionList),
  }),
  v.check((b) => Object.keys(b).length > 0, 'must set at least one of resolved, body, addedReactions, removedReactions'),
  v.forward(v.check((b) => noOverlap(b), overlapMessage), ['removedReactions']),
);

export const postReplyBody = v.pipe(
  v.strictObject({ body: v.optional(commentBody) }),
  v.forward(v.check((b) => b.body !== undefined, 'is required'), ['body']),
);

export const updateReplyBody = v.pipe(
  v.strictObject({
    body: v.optional(commentBody),
    addedReactions: v.optional(reactionList),
    removedReactions: v.optional(reactionList),
  }),
  v.check((b) => Object.keys(b).length > 0, 'must set at least one of body, addedReactions, removedReactions'),
  v.forward(v.check((b) => noOverlap(b), overlapMessage), ['removedReactions']),
);

/** `format`: the body always carries markdown (spec 2.10); both values are accepted. */
const format = v.optional(v.picklist(['markdown', 'document'], 'must be markdown or document'));

/** User ids, as repeated parameters (`authors=a&authors=b`, as the official client sends them) and/or comma-separated. */
const authors = v.pipe(
  v.union([v.string(), v.array(v.string())], 'must be user ids'),
  v.transform((value) => (Array.isArray(value) ? value : [value]).flatMap((s) => s.split(',')).map((s) => s.trim()).filter(Boolean)),
  v.array(id),
  v.maxLength(100, 'must name at most 100 users'),
);

export const listCommentsQuery = v.object({
  ...listQueryEntries,
  order,
  status: v.optional(v.picklist(['all', 'open', 'resolved'], 'must be all, open or resolved'), 'all'),
  format,
  targetPage: v.optional(id),
  authors: v.optional(authors),
  /** `authors[]=a` (bracket style) is read as `authors`. */
  'authors[]': v.optional(authors),
});

export const getCommentQuery = v.object({ format });

/** The reply list: `page`, `limit`, `format` (replies come oldest first, the order of the thread). */
export const listRepliesQuery = v.object({ ...listQueryEntries, format });
