import * as v from 'valibot';
import { id, listQueryEntries, queryBoolean } from '../../shared/http/schemas.ts';
export { spaceParams, changeRequestParams } from '../../shared/http/schemas.ts';

/** A page of a revision by id (.../revisions/{revisionId}/page/{pageId}/meta-links). */
export const revisionPageParams = v.object({ spaceId: id, revisionId: id, pageId: id });
import { templateIds } from '../../shared/content/templates.ts';

export const pageParams = v.object({ spaceId: id, pageId: id });
export const fileParams = v.object({ spaceId: id, fileId: id });
export const changeRequestPageParams = v.object({ spaceId: id, changeRequestId: id, pageId: id });
export const changeRequestFileParams = v.object({ spaceId: id, changeRequestId: id, fileId: id });

/** `metadata` (default true: false omits git metadata) and `computed` (default true). */
const contentFlags = {
  metadata: v.optional(queryBoolean, 'true'),
  computed: v.optional(queryBoolean, 'true'),
};

export const contentQuery = v.object(contentFlags);
export const filesQuery = v.object({ ...listQueryEntries, ...contentFlags });
export const pageQuery = v.object({
  ...contentFlags,
  format: v.optional(v.picklist(['document', 'markdown'], 'must be document or markdown'), 'document'),
  evaluated: v.optional(v.picklist(['true', 'false', 'deterministic-only'], 'must be true, false or deterministic-only'), 'false'),
});

export const revisionParams = v.object({ spaceId: id, revisionId: id });
/** A page path: slugs joined by slashes; `.` and `..` segments are never a page's (no traversal). */
export const pagePathParams = v.object({
  spaceId: id,
  pagePath: v.pipe(
    v.string(),
    v.minLength(1, 'must not be empty'),
    v.maxLength(2000, 'must be at most 2000 characters'),
    v.check((path) => !path.split('/').some((segment) => segment === '.' || segment === '..'), 'must not contain . or .. segments'),
  ),
});

/** Content references one template application may name (a template uses a handful). */
export const MAX_TEMPLATE_CONTENT_REFS = 50;

const contentRef = v.variant('kind', [
  v.strictObject({
    kind: v.literal('url'),
    url: v.pipe(v.string('must be a string'), v.url('must be a URL'), v.regex(/^[^<>\s]+$/, 'must not hold spaces or angle brackets'), v.maxLength(2048, 'must be at most 2048 characters')),
  }),
  v.strictObject({ kind: v.literal('page'), page: id, space: v.optional(id) }),
  v.strictObject({ kind: v.literal('file'), file: id, space: v.optional(id) }),
], 'must be a url, page or file content reference');

/** Body of applyTemplateToSpace: the public interface's ApplySpaceTemplate plus `changeRequestId`. */
export const applyTemplateBody = v.strictObject({
  id: v.picklist(templateIds, `must be one of ${templateIds.join(', ')}`),
  params: v.optional(v.strictObject({
    contentRefs: v.optional(v.pipe(
      v.record(v.pipe(v.string(), v.maxLength(64, 'must be at most 64 characters')), contentRef, 'must be a map of content references'),
      v.maxEntries(MAX_TEMPLATE_CONTENT_REFS, `must hold at most ${MAX_TEMPLATE_CONTENT_REFS} content references`),
    )),
  })),
  changeRequestId: v.optional(id),
});

export { contentChangesBody } from '../../shared/content/change-schema.ts';

/**
 * Query of updateChangeRequestContent: `compat` (default true) answers the change request alone;
 * false adds the pages the batch affected and the files it inserted, as the public interface does.
 */
export const contentUpdateQuery = v.object({ compat: v.optional(queryBoolean, 'true') });
