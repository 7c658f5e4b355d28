import { Hono } from 'hono';
import * as v from 'valibot';
import { siteEntity } from '../../shared/db/entities/site.ts';
import { siteVisitorKey } from '../../shared/reader/visitor.ts';
import { readerBaseUrl } from '../../shared/reader/site.ts';
import { siteIdSchema } from './schemas.ts';
import { findOrgAccess } from '../../shared/policies/access.ts';
import { authenticate } from '../../shared/http/auth.ts';
import type { AppEnv } from '../../shared/http/env.ts';
import { errorResponse, forbidden, notFound } from '../../shared/http/errors.ts';
import { integrationOfUserId } from '../../shared/integrations/installation-user.ts';

/**
 * GET /s/{siteId}/~visitor-key (beyond the spec): the HS256 key a site owner signs visitor
 * JWTs with for a `visitor-auth` site. Organization admins only, with their API token
 * (`Authorization: Bearer`), authenticated as every API request is (shared/http/auth.ts:
 * expiry, revocation, failure counts, a token bound to another organization); JSON
 * answers, never cached.
 */
export function mountVisitorKey(app: Hono) {
  const keys = new Hono<AppEnv>();
  keys.onError((error, c) => errorResponse(c, error));
  keys.get('/:siteId/~visitor-key', async (c, next) => {
    c.header('Cache-Control', 'private, no-store');
    await next();
  }, authenticate, async (c) => {
    const siteId = c.req.param('siteId');
    const missing = () => notFound(`No site found with id ${siteId}`);
    const site = v.is(siteIdSchema, siteId) ? await siteEntity.get({ siteId }) : undefined;
    if (!site) throw missing();
    // An integration's installation token acts as a synthetic member, never as an admin here.
    if (integrationOfUserId(c.get('caller').userId)) throw forbidden('Integration tokens cannot read a site\'s visitor signing key');
    const access = await findOrgAccess(c.var.scope, site.orgId);
    if (!access) throw missing();
    if (access.role !== 'admin') throw forbidden('Only organization admins can read a site\'s visitor signing key');
    return c.json({
      object: 'site-visitor-key',
      siteId: site.id,
      algorithm: 'HS256',
      key: await siteVisitorKey(site.id),
      usage: `Sign a JWT (HS256) with this key as UTF-8 bytes; send visitors to ${readerBaseUrl(site.id)}?jwt_token=<jwt>. Its claims are visitor.claims.* in adaptive content conditions once the site's adaptiveContent is enabled; an application can also set it as the docs-visitor-token cookie.`,
    });
  });
  app.route('/s', keys);
}
