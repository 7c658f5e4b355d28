import * as v from 'valibot';
import { contentRefSchema, richDocumentSchema, timestampSchema, urlSchema } from './common.ts';
import { changeRequestSchema } from './change-request.ts';

const gitBlobSchema = v.object({ oid: v.string(), path: v.string() });

/** Every layout option of a page, defaults filled in (public RevisionPageLayoutOptions). */
export const pageLayoutSchema = v.object({
  width: v.picklist(['default', 'wide']),
  cover: v.boolean(),
  coverSize: v.picklist(['hero', 'full', 'background']),
  coverMask: v.picklist(['none', 'radial']),
  title: v.boolean(),
  description: v.boolean(),
  tableOfContents: v.boolean(),
  outline: v.boolean(),
  pagination: v.boolean(),
  metadata: v.boolean(),
  tags: v.boolean(),
  actions: v.boolean(),
  anchors: v.boolean(),
});
export type PageLayoutOutput = v.InferOutput<typeof pageLayoutSchema>;

/** A tag on a page (public RevisionPageTag); the service defines no tags yet, so lists are empty. */
const pageTagSchema = v.object({
  tag: v.object({ kind: v.literal('tag'), tag: v.string(), space: v.optional(v.string()) }),
  primary: v.optional(v.boolean()),
});

/**
 * Page (spec 2.8) without its content, as listed in revisions: the fields of every kind
 * (`document`, `group`, `link`), `kind` being the public interface's deprecated twin of `type`
 * (`sheet` for documents). `pages` nests the same shape.
 */
export const revisionPageSchema: v.GenericSchema<RevisionPageOutput> = v.object({
  object: v.literal('page'),
  id: v.string(),
  title: v.string(),
  emoji: v.string(),
  icon: v.string(),
  createdAt: timestampSchema,
  updatedAt: timestampSchema,
  kind: v.picklist(['sheet', 'group', 'link']),
  type: v.picklist(['document', 'group', 'link']),
  urls: v.object({ app: urlSchema }),
  slug: v.string(),
  path: v.string(),
  description: v.string(),
  /** Link pages: where they point, as a URL and as a content reference. */
  href: v.optional(v.string()),
  target: v.optional(contentRefSchema),
  pages: v.array(v.lazy(() => revisionPageSchema)),
  git: v.optional(gitBlobSchema),
  layout: pageLayoutSchema,
  cover: v.optional(v.looseObject({
    ref: v.optional(contentRefSchema),
    refDark: v.optional(contentRefSchema),
    yPos: v.number(),
    height: v.optional(v.number()),
  })),
  variables: v.record(v.string(), v.string()),
  hidden: v.boolean(),
  noIndex: v.boolean(),
  noRobotsIndex: v.boolean(),
  tags: v.array(pageTagSchema),
});
export interface RevisionPageOutput {
  object: 'page';
  id: string;
  title: string;
  emoji: string;
  icon: string;
  createdAt: string;
  updatedAt: string;
  kind: 'sheet' | 'group' | 'link';
  type: 'document' | 'group' | 'link';
  urls: { app: string };
  slug: string;
  path: string;
  description: string;
  href?: string;
  target?: { kind: string; [key: string]: unknown };
  pages: RevisionPageOutput[];
  git?: { oid: string; path: string };
  layout: PageLayoutOutput;
  cover?: { ref?: { kind: string; [key: string]: unknown }; refDark?: { kind: string; [key: string]: unknown }; yPos: number; height?: number; [key: string]: unknown };
  variables: Record<string, string>;
  hidden: boolean;
  noIndex: boolean;
  noRobotsIndex: boolean;
  tags: v.InferOutput<typeof pageTagSchema>[];
}

/** GET .../content/pages (spec 4.3): no list envelope. */
export const revisionPagesSchema = v.object({ pages: v.array(revisionPageSchema) });

/** GET .../content/page/{pageId}: the page with its rich `document`, or `markdown` with format=markdown. */
export const revisionPageWithContentSchema = v.union([
  v.intersect([revisionPageSchema, v.object({ document: richDocumentSchema })]),
  v.intersect([revisionPageSchema, v.object({ markdown: v.string() })]),
]);

/** File (spec 2.8) with a working download URL. */
export const revisionFileSchema = v.object({
  object: v.literal('file'),
  id: v.string(),
  name: v.string(),
  contentType: v.string(),
  downloadURL: urlSchema,
  size: v.pipe(v.number(), v.integer(), v.minValue(0)),
  dimensions: v.optional(v.object({ width: v.number(), height: v.number() })),
  git: v.optional(gitBlobSchema),
});
export type RevisionFileOutput = v.InferOutput<typeof revisionFileSchema>;

const revisionBase = {
  object: v.literal('revision'),
  id: v.string(),
  parents: v.array(v.string()),
  pages: v.array(revisionPageSchema),
  files: v.array(revisionFileSchema),
  reusableContents: v.array(v.object({ id: v.string(), title: v.string(), git: v.optional(gitBlobSchema) })),
  /** Revision tags (public RevisionTag): the service defines none yet. */
  tags: v.array(v.object({ slug: v.string(), label: v.string(), color: v.string() })),
  variables: v.record(v.string(), v.string()),
  createdAt: timestampSchema,
  git: v.optional(v.object({
    oid: v.string(),
    message: v.string(),
    createdByGitBook: v.boolean(),
    url: v.optional(v.string()),
    ref: v.optional(v.string()),
  })),
  urls: v.object({ app: urlSchema, published: v.optional(urlSchema), public: v.optional(urlSchema) }),
};

/** Revision (spec 2.8): one variant per `type`; a merge names the change request it merged. */
export const revisionSchema = v.variant('type', [
  v.object({ ...revisionBase, type: v.picklist(['edits', 'update', 'rollback']) }),
  v.object({ ...revisionBase, type: v.literal('merge'), mergedFrom: changeRequestSchema }),
]);
export type RevisionOutput = v.InferOutput<typeof revisionSchema>;

/** What a batch of content changes did to one page (public ChangeRequestContentUpdateChange). */
const pageRefSchema = v.object({ object: v.literal('page'), id: v.string(), urls: v.object({ location: urlSchema }) });
export const contentUpdateChangeSchema = v.variant('object', [
  v.object({ object: v.literal('created_page'), ref: v.optional(v.string()), page: pageRefSchema }),
  v.object({ object: v.literal('updated_page'), page: pageRefSchema }),
  v.object({ object: v.literal('deleted_page'), page: v.string() }),
]);
export type ContentUpdateChangeOutput = v.InferOutput<typeof contentUpdateChangeSchema>;

/**
 * POST /spaces/{spaceId}/change-requests/{changeRequestId}/content (updateChangeRequestContent):
 * the change request (`compat=true`, the default) or, with `compat=false`, the change request
 * with the pages the batch affected and the files it inserted.
 */
export const contentUpdateSchema = v.object({
  changeRequest: changeRequestSchema,
  changes: v.array(contentUpdateChangeSchema),
  insertedFiles: v.array(revisionFileSchema),
});
export const updateChangeRequestContentSchema = v.union([changeRequestSchema, contentUpdateSchema]);
