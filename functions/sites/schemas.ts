import * as v from 'valibot';
import { conditionExpression, id, listQueryEntries, oneLine, partialBody, queryBoolean, storedSize } from '../../shared/http/schemas.ts';
import { maxChars, minChars } from '../../shared/http/string-length.ts';
export { organizationParams } from '../../shared/http/schemas.ts';
import { siteTypes, siteVisibilities } from '../../shared/db/entities/site.ts';

export const siteParams = v.object({ organizationId: id, siteId: id });
export const siteSpaceParams = v.object({ organizationId: id, siteId: id, siteSpaceId: id });
export const sectionParams = v.object({ organizationId: id, siteId: id, siteSectionId: id });
export const groupParams = v.object({ organizationId: id, siteId: id, siteSectionGroupId: id });
export const groupSectionParams = v.object({ organizationId: id, siteId: id, siteSectionGroupId: id, siteSectionId: id });
export const shareLinkParams = v.object({ organizationId: id, siteId: id, shareLinkId: id });

const str = () => v.string('must be a string');
const siteTitle = v.pipe(str(), v.trim(), minChars(2, 'must be 2 to 128 characters'), maxChars(128, 'must be 2 to 128 characters'), oneLine);
const visibility = v.picklist(siteVisibilities, `must be one of ${siteVisibilities.join(', ')}`);
const basename = v.pipe(str(), v.maxLength(100, 'must be at most 100 characters'), v.regex(/^[A-Za-z0-9][A-Za-z0-9._~-]{0,99}$/, 'must be 1 to 100 letters, digits, dots, dashes, underscores or tildes'));
const proxyOrigin = v.pipe(str(), v.maxLength(512, 'must be at most 512 characters'), v.regex(/^([\w-]+\.)*[\w-]+\.[a-zA-Z]{2,}(\/[\w-]+)+$/, 'must be a host followed by one or more path segments, e.g. example.com/docs'));
const icon = v.pipe(str(), v.maxLength(50, 'must be at most 50 characters'));
const condition = v.nullable(conditionExpression);
const path = v.pipe(str(), v.minLength(1, 'must be 1 to 100 characters'), v.maxLength(100, 'must be 1 to 100 characters'), v.regex(/^[^\s/?#]+$/, 'must not contain spaces, slashes, ? or #'));
const shareKey = v.optional(v.pipe(str(), v.maxLength(200, 'must be at most 200 characters')));

const siteType = v.picklist(siteTypes, `must be one of ${siteTypes.join(', ')}`);

export const listSitesQuery = v.object({
  ...listQueryEntries,
  space: v.optional(id),
  title: v.optional(v.pipe(str(), maxChars(128))),
  published: v.optional(queryBoolean),
  /** One type, or several with a repeated `type` parameter (the public interface's array, as its client sends it). */
  type: v.optional(v.pipe(
    v.union([siteType, v.array(siteType)], `must be one of ${siteTypes.join(', ')}`),
    v.transform((t) => [...new Set(Array.isArray(t) ? t : [t])]),
  )),
});

export const createSiteBody = v.strictObject({
  type: v.optional(v.picklist(siteTypes, `must be one of ${siteTypes.join(', ')}`)),
  title: v.optional(siteTitle),
  visibility: v.optional(visibility),
  spaces: v.optional(v.pipe(v.array(id, 'must be an array of space ids'), v.maxLength(50, 'must list at most 50 spaces'))),
});

export const updateSiteBody = partialBody({
  title: v.optional(siteTitle),
  visibility: v.optional(visibility),
  basename: v.optional(basename),
  adaptiveContent: v.optional(v.strictObject({ enabled: v.boolean('must be a boolean') })),
  agentsContext: v.optional(v.picklist(['excluded', 'included'], 'must be excluded or included')),
  defaultSiteSpace: v.optional(id),
  defaultSiteSection: v.optional(id),
  proxy: v.optional(v.nullable(proxyOrigin)),
});

/** Stored in the site's adaptive-schema item: at most 300 KB of JSON (shared/http/schemas.ts storedSize). */
export const adaptiveSchemaBody = v.strictObject({ jsonSchema: v.pipe(v.unknown(), storedSize()) });

export const shareKeyQuery = v.object({ shareKey });
export const listSiteSpacesQuery = v.object({ ...listQueryEntries, shareKey, default: v.optional(queryBoolean) });
export const listSectionsQuery = v.object({ ...listQueryEntries, shareKey });
export const listQuery = v.object(listQueryEntries);

export const addSiteSpaceBody = v.strictObject({
  spaceId: id,
  sectionId: v.optional(id),
});

export const updateSiteSpaceBody = partialBody({
  path: v.optional(path),
  condition: v.optional(condition),
  spaceId: v.optional(id),
});

const siteSpacePointer = v.strictObject({ type: v.literal('site-space', 'must be "site-space"'), siteSpace: id });
export const moveSiteSpaceBody = v.strictObject({
  position: v.optional(v.union([
    v.strictObject({ before: siteSpacePointer }),
    v.strictObject({ after: siteSpacePointer }),
  ], 'must be {before: {type: site-space, siteSpace}} or {after: {type: site-space, siteSpace}}')),
});

const sectionTitle = v.pipe(str(), v.trim(), minChars(2, 'must be 2 to 128 characters'), maxChars(128, 'must be 2 to 128 characters'), oneLine);

export const createSectionBody = v.strictObject({
  spaceId: id,
  title: v.optional(sectionTitle),
  icon: v.optional(v.nullable(icon)),
});

export const updateSectionBody = partialBody({
  title: v.optional(sectionTitle),
  path: v.optional(path),
  defaultSiteSpace: v.optional(id),
  condition: v.optional(condition),
  icon: v.optional(v.nullable(icon)),
  description: v.optional(v.nullable(v.pipe(str(), maxChars(256)))),
});

const sectionPointer = v.strictObject({ type: v.literal('site-section', 'must be "site-section"'), siteSection: id });
export const moveSectionBody = v.strictObject({
  position: v.optional(v.union([
    v.strictObject({ before: sectionPointer }),
    v.strictObject({ after: sectionPointer }),
  ], 'must be {before: {type: site-section, siteSection}} or {after: {type: site-section, siteSection}}')),
});

const groupTitle = v.pipe(str(), v.trim(), v.minLength(1, 'must be 1 to 100 characters'), maxChars(100, 'must be 1 to 100 characters'), oneLine);

export const createGroupBody = v.strictObject({
  title: groupTitle,
  icon: v.optional(v.nullable(icon)),
  sections: v.optional(v.pipe(v.array(id, 'must be an array of section ids'), v.maxLength(50, 'must list at most 50 sections'))),
  parent: v.optional(id),
});

export const updateGroupBody = partialBody({
  title: v.optional(groupTitle),
  icon: v.optional(v.nullable(icon)),
});

export const addGroupSectionBody = v.strictObject({ sectionId: id });

const shareLinkName = v.pipe(str(), v.trim(), maxChars(50));
export const createShareLinkBody = v.strictObject({ name: shareLinkName });
export const updateShareLinkBody = partialBody({
  active: v.optional(v.boolean('must be a boolean')),
  name: v.optional(shareLinkName),
});
