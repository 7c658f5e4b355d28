import { badRequest } from '../../http/errors.ts';
import type { SiteSpaceItem } from '../../db/entities/site.ts';
import { isDefaultSiteSpace, sectionsInOrder, siteSpacesIn, siteSpacesInOrder, type SiteTree } from '../../commands/sites/tree.ts';

/** The public interface's SiteSearchScope: which site spaces a site search covers. */
export type SiteSearchScope =
  | { mode: 'all' }
  | { mode: 'default'; currentSiteSpace?: string; restrictTo?: 'currentSiteSpace' | 'otherSiteSpaces' }
  | { mode: 'specific'; siteSpaceIds: string[] };

/**
 * The site spaces a scope selects, in reading order:
 * - `all`: every site space;
 * - `specific`: the ones named (400 naming `field` for an id not in the site);
 * - `default`: one site space per section (or of the root, for a site without sections):
 *   the current one where it is, else the one whose space has the current one's language,
 *   else the section's default (its first site space when none is set, as the reader does);
 *   `restrictTo` keeps only the current one, or only the others.
 * `languageOf` gives the language of a site space's space, when known.
 */
export function siteSpacesInScope(
  tree: SiteTree,
  scope: SiteSearchScope,
  field: string,
  languageOf: (siteSpace: SiteSpaceItem) => string | undefined,
): SiteSpaceItem[] {
  const inSite = (siteSpaceId: string, name: string) => {
    const found = tree.siteSpaces.find((s) => s.id === siteSpaceId);
    if (!found) throw badRequest(`${name}: no site space ${siteSpaceId} in this site`);
    return found;
  };
  switch (scope.mode) {
    case 'all':
      return siteSpacesInOrder(tree);
    case 'specific': {
      const named = new Set(scope.siteSpaceIds.map((siteSpaceId, i) => inSite(siteSpaceId, `${field}.${i}`).id));
      return siteSpacesInOrder(tree).filter((s) => named.has(s.id));
    }
    case 'default': {
      const current = scope.currentSiteSpace === undefined ? undefined : inSite(scope.currentSiteSpace, field);
      if (current && scope.restrictTo === 'currentSiteSpace') return [current];
      const language = current ? languageOf(current) : undefined;
      const groups = [siteSpacesIn(tree, undefined), ...sectionsInOrder(tree).map((s) => siteSpacesIn(tree, s.id))].filter((g) => g.length > 0);
      const picked = groups.map((group) => group.find((s) => s.id === current?.id)
        ?? (language ? group.find((s) => languageOf(s) === language) : undefined)
        ?? group.find((s) => isDefaultSiteSpace(tree, s))
        ?? group[0]!);
      return scope.restrictTo === 'otherSiteSpaces' ? picked.filter((s) => s.id !== current?.id) : picked;
    }
  }
}
