import type { Context } from 'hono';
import type { AppEnv } from '../../shared/http/env.ts';
import { ApiError } from '../../shared/http/errors.ts';
import { changeSite, loadSiteOrgAccess, type SiteNeed, type SiteTree } from '../../shared/commands/sites-structure.ts';

/**
 * DELETE of a site child: 205 when `remove` removed something, 204 when there was
 * nothing to remove (also when the site itself does not exist; spec 7.1).
 */
export async function deleteOrNoContent(
  c: Context<AppEnv>, orgId: string, siteId: string, remove: (tree: SiteTree) => boolean, need: SiteNeed = 'create',
) {
  await loadSiteOrgAccess(c, orgId, need);
  try {
    const { result } = await changeSite(c, orgId, siteId, need, remove);
    return c.body(null, result ? 205 : 204);
  } catch (error) {
    if (error instanceof ApiError && error.status === 404 && error.message.startsWith('No site found')) return c.body(null, 204);
    throw error;
  }
}
