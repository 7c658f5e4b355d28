import { operationRoutes, route } from '../../shared/http/route.ts';
import { changeSite } from '../../shared/commands/sites/change.ts';
import { presentSite } from '../../shared/presenters/site.ts';
import * as op from './operations.ts';

/**
 * POST /orgs/{organizationId}/sites/{siteId}/unpublish (unpublishSite, beyond the spec): the
 * reverse of publish, with the role publish needs (the public interface gives both the same
 * `site:publish` scope). The site keeps its structure and settings; the reader answers 404
 * for it at once (it checks `published` on every request) and `urls.published` goes away.
 * Unpublishing an unpublished site changes nothing and answers the site.
 */
export const unpublishRoutes = operationRoutes();

route(unpublishRoutes, op.unpublishSite, async (c) => {
  const { organizationId, siteId } = c.req.valid('param');
  const { tree, access } = await changeSite(c.var.scope, organizationId, siteId, 'create', (t) => {
    t.site.published = false;
  });
  return c.json(presentSite(tree.site, access.org, access.role));
});
