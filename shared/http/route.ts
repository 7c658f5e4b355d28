import { Hono, type Handler, type MiddlewareHandler } from 'hono';
import type * as v from 'valibot';
import { createGroupApp, type GroupApp } from './group-app.ts';
import { validate } from './validate.ts';
import { notImplemented } from './errors.ts';
import { toHonoPath, type Operation, type OperationGroup, type OperationInput } from './declare.ts';
import type { AppEnv } from './env.ts';

/**
 * Registering declared operations (shared/http/declare.ts) on Hono apps:
 * - operationRoutes() makes a sub-app of routes (one per file of handlers);
 * - route(app, operation, handler) registers the handler on the operation's method and
 *   path, after validators of the declared params, query and body, so that
 *   `c.req.valid('param' | 'query' | 'json')` is typed from the declaration;
 * - groupApp(group, ...subApps) is a group's app: the shared middleware chain
 *   (group-app.ts), the sub-apps joined with app.route, and a JSON 501 for every declared
 *   operation of the group that has no handler yet.
 */

type Out<S> = S extends v.GenericSchema ? v.InferOutput<S> : never;
type In<S> = S extends v.GenericSchema ? v.InferInput<S> : never;
type TargetOf<K> = K extends 'params' ? 'param' : K extends 'body' ? 'json' : 'query';
type Declared<I extends OperationInput> = { [K in 'params' | 'query' | 'body']: I[K] extends v.GenericSchema ? K : never }['params' | 'query' | 'body'];
/** Hono's input type of a declared operation: what c.req.valid() returns per target. */
export type OperationInputType<I extends OperationInput> = {
  in: { [K in Declared<I> as TargetOf<K>]: In<I[K]> };
  out: { [K in Declared<I> as TargetOf<K>]: Out<I[K]> };
};

/** '/spaces/{spaceId}' -> '/spaces/:spaceId' at the type level, so c.req.param() knows the names. */
type HonoPath<S extends string> = S extends `${infer A}{${infer N}}${infer B}`
  ? `${A}:${N extends `${infer G}+` ? `${G}{.+}` : N}${HonoPath<B>}`
  : S;
/** Hono's path type of an operation; `any` when the declaration's path is not a literal (shared reads). */
type PathOf<I extends OperationInput> = string extends I['path'] ? any : HonoPath<I['path']>;

/** A handler of a declared operation. */
export type OperationHandler<I extends OperationInput> = Handler<AppEnv, PathOf<I>, OperationInputType<I>>;

export type OperationRoutes = Hono<AppEnv>;

/** The operations each sub-app registered, so groupApp knows which still answer 501. */
const registered = new WeakMap<OperationRoutes, Operation[]>();

/** A sub-app of operation routes; `register` adds them (route(app, ...) calls). */
export function operationRoutes(register?: (app: OperationRoutes) => void): OperationRoutes {
  const app = new Hono<AppEnv>();
  registered.set(app, []);
  register?.(app);
  return app;
}

/** Registers `handler` for `operation`, behind the validators its declaration names. */
export function route<I extends OperationInput>(app: OperationRoutes, operation: Operation<I>, handler: OperationHandler<I>): void {
  const list = registered.get(app);
  if (!list) throw new Error(`route(${operation.operationId}): the app was not made by operationRoutes()`);
  const chain: MiddlewareHandler[] = [];
  // Same order as before declarations: path parameters, then query, then body.
  if (operation.params) chain.push(validate('param', operation.params));
  if (operation.query) chain.push(validate('query', operation.query));
  if (operation.body) chain.push(validate('json', operation.body));
  (app.on as (method: string, path: string, ...handlers: unknown[]) => void)(operation.method, toHonoPath(operation.path), ...chain, handler);
  list.push(operation);
}

/** Operations some group app registered a handler for (the others answer 501). */
const implemented = new WeakSet<Operation>();
export const isImplemented = (operation: Operation): boolean => implemented.has(operation);

/** The operations a sub-app registered (tests compare them with the catalogue). */
export const registeredOperations = (app: OperationRoutes): readonly Operation[] => registered.get(app) ?? [];

/** Routes every caller may reach without a token; only a group's app mounts them (groupApp). */
const publicApps = new WeakSet<Hono<AppEnv>>();
export function publicRoutes(app: Hono<AppEnv>): Hono<AppEnv> {
  publicApps.add(app);
  return app;
}

/**
 * A group's app: its public routes, the middleware chain of every group, then the sub-apps
 * in order (Hono answers with the first route that matches), then a 501 for the group's
 * declared operations nobody registered, so the route table stays complete.
 */
export function groupApp(group: OperationGroup, ...subApps: Hono<AppEnv>[]): GroupApp {
  return buildGroupApp(group, group.operations, subApps);
}

/**
 * The group app that also answers requests no route matches (API Gateway's catch-all route
 * in AWS, infra/constructs/api.ts NOT_FOUND_GROUP): `routes` is every route of the service,
 * so a path served with other methods is a 405 naming them.
 */
export function catchAllGroupApp(group: OperationGroup, routes: readonly Operation[], ...subApps: Hono<AppEnv>[]): GroupApp {
  return buildGroupApp(group, routes, subApps);
}

function buildGroupApp(group: OperationGroup, routes: readonly Operation[], subApps: Hono<AppEnv>[]): GroupApp {
  const app = createGroupApp({ operations: group.operations, routes }, ...subApps.filter((sub) => publicApps.has(sub)));
  const done = new Set<Operation>();
  for (const sub of subApps) {
    if (publicApps.has(sub)) continue;
    for (const operation of registeredOperations(sub)) {
      if (operation.group !== group.name) throw new Error(`${operation.operationId} belongs to ${operation.group}, not ${group.name}`);
      if (done.has(operation)) throw new Error(`${operation.operationId} is registered twice`);
      done.add(operation);
      implemented.add(operation);
    }
    app.route('/', sub);
  }
  for (const operation of group.operations) {
    if (done.has(operation)) continue;
    app.on(operation.method, toHonoPath(operation.path), () => {
      throw notImplemented(`${operation.method} /v1${operation.path} (${operation.operationId}) is not implemented yet`);
    });
  }
  return app;
}
