import { createMiddleware } from 'hono/factory';
import { badRequest, methodNotAllowed, notFound, type ApiError } from './errors.ts';
import type { Operation } from './declare.ts';
import type { AppEnv } from './env.ts';
import { appendLogKeys } from '../observability/context.ts';

/**
 * Path parameters are checked by length and alphabet before anything reads a key built
 * from them (the authenticate middleware's BatchGetItem comes next): DynamoDB refuses
 * keys over 2 KB with an error, so a long or odd id must never reach it. The rule of each
 * parameter comes from its name in the operation's path (operations.ts), so every
 * operation, including ones added later, gets it for free. Each rule is a superset of the
 * valid values: routes still validate their params with their own, stricter schemas (an
 * OpenAPI slug's pattern, a domain name), whose messages callers see for near misses.
 */

interface ParamRule {
  max: number;
  pattern: RegExp;
  /** What `pattern` allows, for the error message. */
  alphabet: string;
}

/** Ids (random base62 ids, caller-chosen conversation ids, user ids such as local-admin). */
export const MAX_PATH_ID_LENGTH = 100;
const idRule: ParamRule = { max: MAX_PATH_ID_LENGTH, pattern: /^[A-Za-z0-9._:~-]+$/, alphabet: 'letters, digits and . _ : ~ -' };

/** Every parameter kind that is not an id; the others use idRule. */
const rules: Record<string, ParamRule> = {
  /** A DNS name (253 characters at most); the route checks the name itself. */
  emailDomain: { max: 253, pattern: /^[A-Za-z0-9._-]+$/, alphabet: 'letters, digits and . _ -' },
  /** A page path: slugs (letters, digits, - _ .) joined by slashes. */
  pagePath: { max: 2000, pattern: /^[A-Za-z0-9._~/-]+$/, alphabet: 'letters, digits, slashes and . _ ~ -' },
};

export const pathParamRule = (name: string): ParamRule => rules[name] ?? idRule;

interface CompiledPath {
  op: Operation;
  /** Literal segments, or a parameter name (greedy when `+`). */
  segments: ({ literal: string } | { param: string; greedy: boolean })[];
  literals: number;
}

const compile = (operations: readonly Operation[]): CompiledPath[] => operations.map((op) => {
  const segments = op.path.split('/').slice(1).map((s) => {
    const m = /^\{([A-Za-z0-9_]+)(\+?)\}$/.exec(s);
    return m ? { param: m[1]!, greedy: m[2] === '+' } : { literal: s };
  });
  return { op, segments, literals: segments.filter((s) => 'literal' in s).length };
});

/** The most specific operation matching `segments`, with its raw (still percent-encoded) parameter values. */
function match(compiled: CompiledPath[], method: string, segments: string[]): { op: Operation; params: Map<string, string> } | undefined {
  let best: { op: Operation; params: Map<string, string>; literals: number; sameMethod: boolean } | undefined;
  for (const path of compiled) {
    const params = matchPath(path, segments);
    if (!params) continue;
    const sameMethod = path.op.method === method;
    if (!best || path.literals > best.literals || (path.literals === best.literals && sameMethod && !best.sameMethod)) {
      best = { op: path.op, params, literals: path.literals, sameMethod };
    }
  }
  return best;
}

function matchPath(path: CompiledPath, segments: string[]): Map<string, string> | undefined {
  const params = new Map<string, string>();
  for (let i = 0; i < path.segments.length; i++) {
    const expected = path.segments[i]!;
    const actual = segments[i];
    if (actual === undefined) return undefined;
    if ('literal' in expected) {
      if (actual !== expected.literal) return undefined;
    } else if (expected.greedy) {
      params.set(expected.param, segments.slice(i).join('/'));
      return params;
    } else {
      params.set(expected.param, actual);
    }
  }
  return path.segments.length === segments.length ? params : undefined;
}

/** The decoded value, or a 400 naming the parameter. */
export function checkPathParam(name: string, raw: string): string {
  let value: string;
  try {
    value = decodeURIComponent(raw);
  } catch {
    throw badRequest(`${name}: is not valid percent-encoding`);
  }
  const rule = pathParamRule(name);
  if (value.length === 0) throw badRequest(`${name}: must not be empty`);
  if (value.length > rule.max) throw badRequest(`${name}: must be at most ${rule.max} characters`);
  if (!rule.pattern.test(value)) throw badRequest(`${name}: must contain only ${rule.alphabet}`);
  return value;
}

/**
 * Middleware: the request path must be the path of one of `operations` (the group's: API
 * Gateway sends a group's app only its own routes; else 404) whose parameters pass their
 * rule (else 400). Works on the raw URL, so malformed percent-encoding is a 400. A path that
 * `routes` (every route the service has, for the app that answers unmatched requests; the
 * group's own by default) answers with other methods only is a 405 naming them.
 */
export const checkPathParams = (operations: readonly Operation[], routes: readonly Operation[] = operations) => {
  const compiled = compileOnce(operations);
  const compiledRoutes = compileOnce(routes);
  return createMiddleware<AppEnv>(async (c, next) => {
  const url = c.req.url;
  const start = url.indexOf('/', url.indexOf('://') + 3);
  const end = url.search(/[?#]/);
  const rawPath = url.slice(start, end === -1 ? undefined : end);
  const segments = segmentsOf(rawPath);
  const found = match(compiled, c.req.method, segments);
  // Off the usual path only: the method is not the matched operation's.
  if (!found || found.op.method !== routeMethod(c.req.method)) {
    const refusal = unmatched(compiledRoutes, c.req.method, segments, rawPath);
    if (refusal) throw refusal;
  }
  if (!found) throw notFound(`No route for ${c.req.method} ${safeDecode(rawPath)}`);
  for (const [name, raw] of found.params) checkPathParam(name, raw);
  appendLogKeys(found.params); // organizationId/spaceId on the request's log lines
  if (found.op.method === c.req.method) c.set('operation', found.op);
  await next();
  });
};

/** '', 'v1', ...segments of a raw path: a trailing slash is ignored as the router ignores it. */
const segmentsOf = (rawPath: string) => rawPath.replace(/\/+$/, '').split('/').slice(2);

/** HEAD is answered as GET (Hono's routers do so). */
const routeMethod = (method: string) => (method === 'HEAD' ? 'GET' : method);
const METHOD_ORDER = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'];

/**
 * Why no route answers `method` on the path: 405 naming the methods that do (with `Allow`),
 * or 404 when none does; undefined when a route with this method matches after all.
 */
function unmatched(compiled: CompiledPath[], method: string, segments: string[], rawPath: string): ApiError | undefined {
  const wanted = routeMethod(method);
  const allowed = new Set<string>();
  for (const path of compiled) {
    if (!matchPath(path, segments)) continue;
    if (path.op.method === wanted) return undefined;
    allowed.add(path.op.method);
    if (path.op.method === 'GET') allowed.add('HEAD');
  }
  if (allowed.size === 0) return notFound(`No route for ${method} ${safeDecode(rawPath)}`);
  const methods = [...allowed].sort((a, b) => METHOD_ORDER.indexOf(a) - METHOD_ORDER.indexOf(b));
  return methodNotAllowed(`${method} is not allowed on ${safeDecode(rawPath)}: use ${methods.filter((m) => m !== 'HEAD').join(', ')}`, methods);
}

/** 405 or 404 for a request no route of `routes` answers (the local server's router uses it too). */
export function noRouteError(routes: readonly Operation[], method: string, rawPath: string): ApiError {
  return unmatched(compileOnce(routes), method, segmentsOf(rawPath), rawPath) ?? notFound(`No route for ${method} ${safeDecode(rawPath)}`);
}

const compiledCache = new WeakMap<readonly Operation[], CompiledPath[]>();
function compileOnce(routes: readonly Operation[]): CompiledPath[] {
  let compiled = compiledCache.get(routes);
  if (!compiled) compiledCache.set(routes, (compiled = compile(routes)));
  return compiled;
}

function safeDecode(path: string): string {
  try {
    return decodeURI(path).slice(0, 300);
  } catch {
    return path.slice(0, 300);
  }
}
