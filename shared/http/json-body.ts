import { MIMEType } from 'node:util';
import type { Context } from 'hono';
import { createMiddleware } from 'hono/factory';
import { ApiError, badRequest } from './errors.ts';
import { checkJsonDepth, checkJsonStructure } from './json-structure.ts';
import type { AppEnv } from './env.ts';

/** An empty or whitespace-only body: no body at all, whatever its Content-Type says. */
const isEmptyBody = (text: string): boolean => text.trim().length === 0;

/**
 * Request bodies are JSON objects: a non-empty body must be sent as `application/json` or
 * `application/<type>+json` (415 otherwise), parse, be an object (every operation's body
 * is one), and pass the structural limits of json-structure.ts. Runs before validation so
 * the caller gets "body: ..." rather than a parser message; the parsed body is kept for the
 * validators (jsonBodyValue), so a body is parsed once.
 */
export const requireJsonBody = createMiddleware<AppEnv>(async (c, next) => {
  if (c.req.method === 'GET' || c.req.method === 'HEAD' || c.req.method === 'DELETE') return next();
  const text = await c.req.text();
  if (isEmptyBody(text)) return next();
  if (!isJsonMediaType(c.req.header('content-type'))) {
    throw new ApiError(415, 'Content-Type: must be application/json or application/<type>+json (UTF-8)');
  }
  const limits = c.get('operation')?.bodyLimits;
  checkJsonDepth(text, limits);
  const body = parseJson(text);
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw badRequest('body: must be a JSON object');
  checkJsonStructure(body, limits);
  // Parsed once: the validators read it from here (jsonBodyValue).
  c.set('jsonBody', body);
  return next();
});

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw badRequest('body: is not valid JSON');
  }
}

/**
 * The body the validators see (validate.ts): an empty body is {}, so an operation whose body
 * has required fields names the first one missing and one without proceeds; otherwise the
 * JSON requireJsonBody accepted.
 */
export async function jsonBodyValue(c: Context<AppEnv>): Promise<unknown> {
  const text = await c.req.text();
  if (isEmptyBody(text)) return {};
  return c.get('jsonBody') ?? parseJson(text);
}

/** `application/json` or a `+json` structured syntax suffix (RFC 6839), in UTF-8. */
export function isJsonMediaType(header: string | undefined): boolean {
  if (!header) return false;
  let type: MIMEType;
  try {
    type = new MIMEType(header);
  } catch {
    return false;
  }
  const charset = type.params.get('charset');
  if (charset !== null && charset.toLowerCase() !== 'utf-8') return false;
  return type.type === 'application' && (type.subtype === 'json' || /^[^+]+\+json$/.test(type.subtype));
}
