import type { Context, Hono } from 'hono';
import * as v from 'valibot';
import { id } from '../../shared/http/schemas.ts';
import { slug as specSlug } from '../openapi/schemas.ts';
import { readOpenAPISpec } from '../../shared/commands/openapi/store.ts';
import { getJsonBlob } from '../../shared/content/blobs.ts';

/**
 * A public OpenAPI spec's `urls.published`: its last processed document as JSON at
 * `/s/~openapi/<org>/<slug>` (under the reader's `/s/` routes, like `~assets`). Anyone may read
 * it, from any origin (API clients and "try it" consoles); a private, absent or never
 * processed spec is the reader's 404.
 */
export function mountPublicOpenAPISpecs(app: Hono, notFound: (c: Context) => Response | Promise<Response>): void {
  app.get('/s/~openapi/:orgId/:slug', async (c) => {
    const { orgId, slug } = c.req.param();
    if (!v.is(id, orgId) || !v.is(specSlug, slug)) return notFound(c);
    const spec = await readOpenAPISpec(orgId, slug);
    if (!spec || spec.visibility !== 'public' || !spec.lastVersionBlob) return notFound(c);
    c.header('Cache-Control', 'public, max-age=60, s-maxage=300');
    c.header('Access-Control-Allow-Origin', '*');
    c.header('ETag', `"${spec.lastVersion}"`);
    return c.json(await getJsonBlob(spec.lastVersionBlob));
  });
}
