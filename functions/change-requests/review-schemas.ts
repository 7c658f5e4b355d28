import * as v from 'valibot';
import { id, listQueryEntries, queryBoolean } from '../../shared/http/schemas.ts';
import { reviewStatuses } from '../../shared/db/entities/change-request-review.ts';
import { MAX_USERS_PER_REVIEW_REQUEST } from '../../shared/commands/change-request-reviews/state.ts';
import { MAX_MARKDOWN_BYTES } from '../comments/schemas.ts';
import { description, subject } from './schemas.ts';

/** requestReviewersForChangeRequest: user ids (repeats collapse), and optionally a new subject and description. */
export const requestReviewersBody = v.strictObject({
  users: v.pipe(
    v.array(id, 'must be an array of user ids'),
    v.minLength(1, 'must name at least one user'),
    v.maxLength(MAX_USERS_PER_REVIEW_REQUEST, `must name at most ${MAX_USERS_PER_REVIEW_REQUEST} users`),
    v.transform((users) => [...new Set(users)]),
  ),
  subject: v.optional(subject),
  description: v.optional(description),
});

/** A review's comment: `{markdown}` or the empty document `{}`, as comment bodies (the `{document}` variant is refused). */
const reviewComment = v.strictObject({
  markdown: v.optional(v.pipe(
    v.string('must be a string'),
    v.check((s) => Buffer.byteLength(s, 'utf8') <= MAX_MARKDOWN_BYTES, `must be at most ${MAX_MARKDOWN_BYTES / 1024} KB`),
  )),
}, 'must be {markdown: string} or {}');

export const submitReviewBody = v.strictObject({
  status: v.picklist(reviewStatuses, `must be one of ${reviewStatuses.join(', ')}`),
  comment: v.optional(reviewComment),
});

/** `format` is accepted for compatibility: comments always carry markdown. */
const format = v.optional(v.picklist(['markdown', 'document'], 'must be markdown or document'));

export const listReviewsQuery = v.object({ ...listQueryEntries, format, outdated: v.optional(queryBoolean) });
export const getReviewQuery = v.object({ format });
export const listRequestedReviewersQuery = v.object(listQueryEntries);
