import { Hono } from 'hono';
import { publicRoutes } from './route.ts';
import { SERVICE_DESCRIPTION_GROUP } from './service-description.ts';
import type { AppEnv } from './env.ts';
import type { GroupName, HttpMethod } from './declare.ts';

/**
 * GET /v1/health without a token, for load balancers, uptime checks and smoke tests after
 * a deploy: it answers from the group app that serves the service description, ahead of
 * authentication (routes in infra/constructs/api.ts, shared/local/server.ts). Shallow on
 * purpose: a probe every few seconds must not cost a DynamoDB read or trip the rate limits.
 */
export const HEALTH_GROUP: GroupName = SERVICE_DESCRIPTION_GROUP;

/** Paths relative to /v1, like the operations'. */
export const HEALTH_ROUTES: readonly { method: HttpMethod; path: string }[] = [{ method: 'GET', path: '/health' }];

export const health = publicRoutes(new Hono<AppEnv>()
  .get('/health', (c) => {
    c.header('Cache-Control', 'no-store');
    return c.json({ status: 'ok' });
  }));
