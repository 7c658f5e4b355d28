import * as v from 'valibot';
import { id } from '../../shared/http/schemas.ts';
import { maxChars } from '../../shared/http/string-length.ts';
import { badRequest } from '../../shared/http/errors.ts';
import type { SiteSearchScope } from '../../shared/content/search/site-scope.ts';

/** Site space ids one search may name (a scope of `specific` site spaces). */
export const MAX_SCOPE_SITE_SPACES = 100;

const siteSpaceIds = v.pipe(
  v.array(id, 'must be an array of site space ids'),
  v.minLength(1, 'must list at least one site space'),
  v.maxLength(MAX_SCOPE_SITE_SPACES, `must list at most ${MAX_SCOPE_SITE_SPACES} site spaces`),
);

const restrictions = ['currentSiteSpace', 'otherSiteSpaces'] as const;

/** The public interface's SiteSearchScope. */
const scope = v.variant('mode', [
  v.strictObject({
    mode: v.literal('default'),
    currentSiteSpace: v.optional(id),
    restrictTo: v.optional(v.picklist(restrictions, 'must be currentSiteSpace or otherSiteSpaces')),
  }),
  v.strictObject({ mode: v.literal('specific'), siteSpaceIds }),
  v.strictObject({ mode: v.literal('all') }),
], 'must be an object whose mode is default, specific or all');

/**
 * Body of searchSiteContent: `query` and either `scope` or one of the deprecated forms the
 * public interface still accepts (`siteSpaceIds` [+ mode specific], mode current +
 * `siteSpaceId`, mode all). Which form was used is checked by siteSearchScope.
 */
export const siteSearchBody = v.strictObject({
  query: v.pipe(
    v.optional(v.string('must be a string'), ''),
    v.nonEmpty('is required'),
    maxChars(512),
  ),
  scope: v.optional(scope),
  mode: v.optional(v.picklist(['specific', 'current', 'all'], 'must be specific, current or all')),
  siteSpaceIds: v.optional(siteSpaceIds),
  siteSpaceId: v.optional(id),
});

export type SiteSearchBody = v.InferOutput<typeof siteSearchBody>;

/**
 * The scope a body asks for, with the name of the field that named site spaces (for the
 * messages of ids that are not in the site). No scope at all searches every site space.
 */
export function siteSearchScope(body: SiteSearchBody): { scope: SiteSearchScope; field: string } {
  const { scope: given, mode, siteSpaceIds: ids, siteSpaceId } = body;
  if (given) {
    if (mode !== undefined || ids !== undefined || siteSpaceId !== undefined) {
      throw badRequest('scope: cannot be combined with the deprecated mode, siteSpaceIds or siteSpaceId');
    }
    if (given.mode === 'default' && given.restrictTo && given.currentSiteSpace === undefined) {
      throw badRequest('scope.restrictTo: needs scope.currentSiteSpace');
    }
    return { scope: given, field: given.mode === 'specific' ? 'scope.siteSpaceIds' : 'scope.currentSiteSpace' };
  }
  if (siteSpaceId !== undefined && mode !== 'current') throw badRequest('siteSpaceId: is only allowed with mode current');
  if (ids !== undefined && mode !== undefined && mode !== 'specific') throw badRequest('siteSpaceIds: is only allowed with mode specific');
  switch (mode) {
    case 'current':
      if (siteSpaceId === undefined) throw badRequest('siteSpaceId: is required with mode current');
      // "The current site space and all sections' defaults."
      return { scope: { mode: 'default', currentSiteSpace: siteSpaceId }, field: 'siteSpaceId' };
    case 'specific':
      if (ids === undefined) throw badRequest('siteSpaceIds: is required with mode specific');
      return { scope: { mode: 'specific', siteSpaceIds: ids }, field: 'siteSpaceIds' };
    default:
      if (ids !== undefined) return { scope: { mode: 'specific', siteSpaceIds: ids }, field: 'siteSpaceIds' };
      return { scope: { mode: 'all' }, field: 'scope' };
  }
}
