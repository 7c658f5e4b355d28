import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { authenticate } from './auth.ts';
import { rateLimitHeadersMiddleware } from './rate-limit.ts';
import { requireJsonBody } from './json-body.ts';
import { checkPathParams } from './path-params.ts';
import { loadCursorKey } from './cursor.ts';
import { ApiError, errorBody, errorResponse } from './errors.ts';
import { observeRequests } from './observe-requests.ts';
import { compressAnswers } from './compress-answers.ts';
import type { AppEnv } from './env.ts';
import type { Operation } from './declare.ts';

/** A group's operations, and for the app that answers unmatched requests every route of the service (its 405s name their methods). */
export interface GroupRoutes {
  operations: readonly Operation[];
  routes?: readonly Operation[];
}

/**
 * The app every endpoint group starts from: `/v1` base path, request observation, body
 * limit, path parameter checks, bearer authentication, JSON body checks, JSON errors for everything (including unknown routes).
 * Order on every route: authenticate -> validate -> load -> authorize -> act -> present.
 */
export function createGroupApp(declared: readonly Operation[] | GroupRoutes, ...publicApps: Hono<AppEnv>[]) {
  const { operations, routes = operations } = Array.isArray(declared) ? { operations: declared as readonly Operation[] } : (declared as GroupRoutes);
  const app = new Hono<AppEnv>().basePath('/v1');
  // First of all, public routes included: log context, round-trip count, x-request-id, access line.
  app.use('*', observeRequests({ group: 'other', operation: (c) => c.get('operation') }));
  app.use('*', compressAnswers);
  // Routes without a token (the service's own description) come before the chain: Hono
  // runs matching handlers in the order they were added, and these answer at once.
  for (const publicApp of publicApps) app.route('/', publicApp);
  app.use('*', rateLimitHeadersMiddleware);
  const limitBody = bodyLimit({
    maxSize: 6 * 1024 * 1024,
    onError: (c) => c.json(errorBody(413, 'body: is larger than 6 MB'), 413),
  });
  // GET and HEAD carry no body to limit; looking for one makes the Node adapter build a whole
  // web Request per call (issue 17: as much CPU as the rest of authentication).
  app.use('*', (c, next) => (c.req.method === 'GET' || c.req.method === 'HEAD' ? next() : limitBody(c, next)));
  // Path ids are checked before authenticate reads keys built from them.
  app.use('*', checkPathParams(operations, routes));
  app.use('*', async (_c, next) => {
    await loadCursorKey();
    await next();
  });
  app.use('*', authenticate);
  app.use('*', requireJsonBody);
  app.notFound((c) => c.json(errorBody(404, `No route for ${c.req.method} ${c.req.path}`), 404));
  app.onError((error, c) => errorResponse(c, error));
  return app;
}

export type GroupApp = ReturnType<typeof createGroupApp>;

/** Handler for operations a later issue implements: the route exists and says so. */
export function notImplementedYet() {
  throw new ApiError(501, 'This operation is not implemented yet');
}
