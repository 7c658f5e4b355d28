import { badRequest, notFound } from '../../http/errors.ts';
import { siteContents } from '../../db/entities/site.ts';
import { loadOrgAccess, loadSpaceAccess, type OrgAccess } from '../../policies/access.ts';
import { policies } from '../../policies/index.ts';
import type { SpaceItem } from '../../db/entities/space.ts';
import type { RequestScope } from '../../http/scope.ts';
import type { SiteTree } from '../../commands/sites/tree.ts';

/** What a site operation needs (docs/permissions.md, "Sites"). */
export type SiteNeed = 'read' | 'create' | 'admin';

/**
 * The caller's org access for a site operation: 404 for non-members (loadOrgAccess),
 * 403 for guests and for members below the role the operation needs (policies.site).
 */
export async function loadSiteOrgAccess(request: RequestScope, orgId: string, need: SiteNeed): Promise<OrgAccess> {
  const access = await loadOrgAccess(request, orgId);
  policies.site.authorize(access, need);
  return access;
}

export async function loadSiteTree(siteId: string): Promise<SiteTree | undefined> {
  const contents = await siteContents.read({ siteId });
  const site = contents.site[0];
  if (!site) return undefined;
  const byPosition = <T extends { position: string; id: string }>(a: T, b: T) => (a.position < b.position ? -1 : a.position > b.position ? 1 : a.id < b.id ? -1 : 1);
  return {
    site,
    siteSpaces: contents.siteSpaces.sort(byPosition),
    sections: contents.sections.sort(byPosition),
    groups: contents.groups.sort(byPosition),
    shareLinks: contents.shareLinks.sort((a, b) => (a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : 0)),
    customizations: contents.customizations,
  };
}

/** The site with its tree, in the given organization; 404 otherwise. */
export async function loadSiteIn(request: RequestScope, orgId: string, siteId: string, need: SiteNeed) {
  const access = await loadSiteOrgAccess(request, orgId, need);
  const tree = await loadSiteTree(siteId);
  if (!tree || tree.site.orgId !== orgId) throw notFound(`No site found with id ${siteId}`);
  return { ...access, tree };
}

/** A space of the organization the caller can read, for a body field; 400 naming the field otherwise. */
export async function resolveSpace(request: RequestScope, orgId: string, spaceId: string, field: string): Promise<SpaceItem> {
  const missing = () => badRequest(`${field}: no space ${spaceId} in this organization`);
  const { space } = await loadSpaceAccess(request, spaceId).catch(() => {
    throw missing();
  });
  if (space.orgId !== orgId) throw missing();
  return space;
}
