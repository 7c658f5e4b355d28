import type { Context } from 'hono';
import type { AppEnv } from '../../shared/http/env.ts';
import { ApiError } from '../../shared/http/errors.ts';
import { changeSite } from '../../shared/commands/sites/change.ts';
import { loadSiteOrgAccess, type SiteNeed } from '../../shared/presenters/read/site-tree.ts';
import { type SiteTree } from '../../shared/commands/sites/tree.ts';

/**
 * What a DELETE of a site child answers once it removed something: the spec says 204 "also
 * when it did not exist" for site spaces, section groups, their section membership and share
 * links, and 204/205 ("a second response states it has been deleted") for sections.
 */
export type DeletedStatus = 204 | 205;

/**
 * DELETE of a site child: `deleted` when `remove` removed something, 204 when there was
 * nothing to remove (also when the site itself does not exist; spec 7.1).
 */
export async function deleteOrNoContent(
  c: Context<AppEnv>, orgId: string, siteId: string, remove: (tree: SiteTree) => boolean,
  options: { deleted: DeletedStatus; need?: SiteNeed },
) {
  const need = options.need ?? 'create';
  await loadSiteOrgAccess(c.var.scope, orgId, need);
  try {
    const { result } = await changeSite(c.var.scope, orgId, siteId, need, remove);
    return c.body(null, result ? options.deleted : 204);
  } catch (error) {
    if (error instanceof ApiError && error.status === 404 && error.message.startsWith('No site found')) return c.body(null, 204);
    throw error;
  }
}
