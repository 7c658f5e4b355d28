import type { Hono } from 'hono';
import { tokenEntity } from '../../shared/db/entities/token.ts';
import { memberEntity } from '../../shared/db/entities/member.ts';
import { siteEntity } from '../../shared/db/entities/site.ts';
import { sha256Hex } from '../../shared/ids.ts';
import { siteVisitorKey } from '../../shared/reader/visitor.ts';
import { readerBaseUrl } from '../../shared/reader/site.ts';
import * as v from 'valibot';
import { siteIdSchema } from './schemas.ts';
import { isActiveMember } from '../../shared/policies/access.ts';

/**
 * GET /s/{siteId}/~visitor-key (beyond the spec): the HS256 key a site owner signs visitor
 * JWTs with for a `visitor-auth` site. Organization admins only, with their API token
 * (`Authorization: Bearer`); JSON answers, never cached.
 */
export function mountVisitorKey(app: Hono) {
  app.get('/s/:siteId/~visitor-key', async (c) => {
    c.header('Cache-Control', 'private, no-store');
    const error = (status: 401 | 403 | 404, message: string) => c.json({ error: { code: status, message } }, status);
    const siteId = c.req.param('siteId');
    const token = /^Bearer\s+([A-Za-z0-9._~+/=-]{8,512})\s*$/i.exec(c.req.header('authorization') ?? '')?.[1];
    if (!token) return error(401, 'An organization admin\'s API token is required (Authorization: Bearer <token>)');
    const accessToken = await tokenEntity.get({ hash: sha256Hex(token) });
    if (!accessToken || accessToken.revokedAt) return error(401, 'The access token is unknown or has been revoked');
    const site = v.is(siteIdSchema, siteId) ? await siteEntity.get({ siteId }) : undefined;
    if (!site) return error(404, `No site found with id ${siteId}`);
    const member = await memberEntity.get({ orgId: site.orgId, userId: accessToken.userId });
    if (!member || !isActiveMember(member)) return error(404, `No site found with id ${siteId}`);
    if (member.role !== 'admin') return error(403, 'Only organization admins can read a site\'s visitor signing key');
    return c.json({
      object: 'site-visitor-key',
      siteId: site.id,
      algorithm: 'HS256',
      key: await siteVisitorKey(site.id),
      usage: `Sign a JWT (HS256) with this key as UTF-8 bytes; send visitors to ${readerBaseUrl(site.id)}?jwt_token=<jwt>. Its claims are visitor.claims.* in adaptive content conditions.`,
    });
  });
}
