import type { Context } from 'hono';
import type { AppEnv } from '../../shared/http/env.ts';
import type { OrganizationItem } from '../../shared/db/entities/organization.ts';
import type { SiteTree } from '../../shared/commands/sites/tree.ts';
import { loadSiteSpaces, shareQueryFor, type StructureContext } from '../../shared/presenters/site.ts';

/** Presentation context of a site's structure: its spaces in one batch, the share key checked. */
export async function structureContext(c: Context<AppEnv>, org: OrganizationItem, tree: SiteTree, shareKey?: string): Promise<StructureContext> {
  const spaces = await loadSiteSpaces(c.var.scope, org, tree.siteSpaces.map((s) => s.spaceId));
  return { org, tree, spaces, shareQuery: shareQueryFor(tree, shareKey) };
}
