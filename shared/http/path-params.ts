import { createMiddleware } from 'hono/factory';
import { badRequest, notFound } from './errors.ts';
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
 * rule (else 400). Works on the raw URL, so malformed percent-encoding is a 400.
 */
export const checkPathParams = (operations: readonly Operation[]) => {
  const compiled = compile(operations);
  return createMiddleware<AppEnv>(async (c, next) => {
  const url = c.req.url;
  const start = url.indexOf('/', url.indexOf('://') + 3);
  const end = url.search(/[?#]/);
  const rawPath = url.slice(start, end === -1 ? undefined : end);
  // '', 'v1', ...segments; a trailing slash is ignored as the router ignores it.
  const segments = rawPath.replace(/\/+$/, '').split('/').slice(2);
  const found = match(compiled, c.req.method, segments);
  if (!found) throw notFound(`No route for ${c.req.method} ${safeDecode(rawPath)}`);
  for (const [name, raw] of found.params) checkPathParam(name, raw);
  appendLogKeys(found.params); // organizationId/spaceId on the request's log lines
  if (found.op.method === c.req.method) c.set('operation', found.op);
  await next();
  });
};

function safeDecode(path: string): string {
  try {
    return decodeURI(path).slice(0, 300);
  } catch {
    return path.slice(0, 300);
  }
}
