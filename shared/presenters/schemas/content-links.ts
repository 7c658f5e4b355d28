import * as v from 'valibot';

/**
 * What the links operations answer about places in content (shared/content/links): a
 * content location naming the organization, space, revision and page (with the block as
 * `internalLocation`) or file, and a page's meta links (the public interface's
 * RevisionPageMetaLinks).
 */
const versionContextSchema = v.object({ type: v.literal('revision'), revision: v.string() });

/** A backlink: the page (and block) of a revision that links to the page or file asked about. */
export const pageLocationSchema = v.object({
  kind: v.literal('page'),
  organization: v.string(),
  space: v.string(),
  versionContext: versionContextSchema,
  page: v.string(),
  internalLocation: v.optional(v.variant('type', [
    v.object({ type: v.literal('node'), node: v.string() }),
    v.object({ type: v.literal('anchor'), anchor: v.string() }),
  ])),
});

/** A meta link target: the same page in another space (ContentRefPage). */
const metaLinkTargetSchema = v.object({ kind: v.literal('page'), page: v.string(), space: v.string() });

export const pageMetaLinksSchema = v.object({
  canonical: v.optional(metaLinkTargetSchema),
  alternates: v.array(metaLinkTargetSchema),
});

const countSchema = v.pipe(v.number(), v.integer(), v.minValue(0));

/** Where a checked link points: a URL, a file or a page (and anchor) of the same revision. */
const linkTargetSchema = v.variant('kind', [
  v.object({ kind: v.literal('url'), url: v.string() }),
  v.object({ kind: v.literal('file'), organization: v.string(), space: v.string(), versionContext: versionContextSchema, file: v.string() }),
  pageLocationSchema,
]);

/** A checked link (shared/content/links/responses.ts presentLink) and the places that hold it. */
export const contentLinkSchema = v.object({
  status: v.picklist(['ok', 'broken', 'in-app']),
  relation: v.literal('reference'),
  targetReference: linkTargetSchema,
  locationReferences: v.array(pageLocationSchema),
});

/** The links operations' answer (linksResponse): the list envelope with `stats` over every link checked. */
export const contentLinksSchema = v.object({
  items: v.array(contentLinkSchema),
  count: v.optional(v.pipe(v.number(), v.integer())),
  next: v.optional(v.object({ page: v.string() })),
  stats: v.object({
    total: countSchema,
    broken: v.object({ total: countSchema, changeRequest: countSchema }),
  }),
});
