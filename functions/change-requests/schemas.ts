import * as v from 'valibot';
import { id, listQueryEntries, partialBody, queryBoolean, richDocument } from '../../shared/http/schemas.ts';
export { organizationParams, spaceParams, changeRequestParams } from '../../shared/http/schemas.ts';
import { maxChars } from '../../shared/http/string-length.ts';

export const reviewParams = v.object({ spaceId: id, changeRequestId: id, reviewId: id });
export const requestedReviewerParams = v.object({ spaceId: id, changeRequestId: id, userId: id });
import { changeRequestStatuses } from '../../shared/db/entities/change-request.ts';

/** Spec 8: at most 100 characters (surrounding whitespace removed); may be empty. */
export const subject = v.pipe(v.string('must be a string'), v.trim(), maxChars(100));

/** Serialized size cap of a stored description (a DynamoDB item holds at most 400 KB). */
export const MAX_DESCRIPTION_BYTES = 256 * 1024;

export const description = v.pipe(
  v.custom<Record<string, unknown>>(
    (value) => typeof value === 'object' && value !== null && !Array.isArray(value) && 'nodes' in value,
    'must be a rich document {object: "document", data, nodes}',
  ),
  richDocument,
  v.check(
    (doc) => Buffer.byteLength(JSON.stringify(doc)) <= MAX_DESCRIPTION_BYTES,
    `must be at most ${MAX_DESCRIPTION_BYTES / 1024} KB once serialized`,
  ),
);

/**
 * Body of createChangeRequest: `subject` and `description` are checked; further free
 * properties are accepted (spec 4.4) and dropped (v.object) — except `template`, which this operation
 * does not apply (POST /spaces/{spaceId}/content/template with `changeRequestId` does).
 */
export const createChangeRequestBody = v.object({
  subject: v.optional(subject),
  description: v.optional(description),
  template: v.optional(v.never('is not applied on creation: create the change request, then POST /spaces/{spaceId}/content/template with its changeRequestId')),
});

const settableStatus = v.picklist(
  ['draft', 'open', 'archived'],
  'must be draft, open or archived (a change request is merged with POST .../merge)',
);

export const updateChangeRequestBody = partialBody({
    subject: v.optional(subject),
    status: v.optional(settableStatus),
    description: v.optional(description),
  });

const status = v.picklist(changeRequestStatuses, `must be one of ${changeRequestStatuses.join(', ')}`);

/** One status, or several with a repeated `status` parameter; default `open` (spec 4.4). */
const statusFilter = v.pipe(
  v.optional(v.union([status, v.array(status)], `must be one of ${changeRequestStatuses.join(', ')}`), 'open'),
  v.transform((s) => [...new Set(Array.isArray(s) ? s : [s])]),
);

const filterEntries = {
  ...listQueryEntries,
  status: statusFilter,
  creator: v.optional(id),
  contributor: v.optional(id),
  requestedReviewer: v.optional(id),
  conversationsIssuesCluster: v.optional(id),
};

export const listSpaceChangeRequestsQuery = v.object(filterEntries);

/** The organization list also takes `space` (as the public interface does). */
export const listOrganizationChangeRequestsQuery = v.object({ ...filterEntries, space: v.optional(id) });

/** `only` (default false) limits the PDF to `page`, which it then requires. */
export const pdfQuery = v.pipe(
  v.object({
    only: v.optional(queryBoolean, 'false'),
    page: v.optional(id),
  }),
  v.forward(v.partialCheck([['only'], ['page']], (q) => !q.only || q.page !== undefined, 'is required when only is true'), ['page']),
);
