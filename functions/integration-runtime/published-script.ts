import { Hono } from 'hono';
import * as v from 'valibot';
import type { AppEnv } from '../../shared/http/env.ts';
import { loadPublishedTree } from '../../shared/reader/site.ts';
import { siteScripts } from '../../shared/reader/site-scripts.ts';
import { publishedScriptBody } from '../../shared/integrations/published-script.ts';
import { siteIdSchema } from '../reader/schemas.ts';
import { errorBody } from '../../shared/http/errors.ts';
import { PUBLISHED_SCRIPT_PATH } from '../integrations/public-paths.ts';

/**
 * An integration's published-site script (shared/reader/site-scripts.ts), loaded async by
 * every page of the site. Served by the runtime, not the reader: answering it runs the
 * integration (workerd) and writes the script cache, neither of which the reader may do.
 */
export const publishedScriptRoutes = new Hono<AppEnv>().get(PUBLISHED_SCRIPT_PATH.replace('{siteId}', ':siteId').replace('{integrationName}', ':name'), async (c) => {
  const siteId = c.req.param('siteId');
  const notFound = () => c.json(errorBody(404, 'No published script found'), 404);
  if (!v.is(siteIdSchema, siteId)) return notFound();
  const tree = await loadPublishedTree(siteId);
  if (!tree) return notFound();
  const script = (await siteScripts(tree.site)).find((s) => s.integration.name === c.req.param('name'));
  if (!script) return notFound();
  const { body, fresh } = await publishedScriptBody(siteId, script);
  return c.body(body, 200, { 'Content-Type': 'text/javascript; charset=utf-8', 'Cache-Control': fresh ? 'public, max-age=300' : 'no-store' });
});
