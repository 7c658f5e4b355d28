import { createMiddleware } from 'hono/factory';
import { badRequest } from './errors.ts';

/**
 * Request bodies are JSON: a non-empty body must say so in Content-Type and parse.
 * Runs before validation so the caller gets "body: ..." rather than a parser message;
 * Hono caches the text, so validators read it again at no cost.
 */
export const requireJsonBody = createMiddleware(async (c, next) => {
  if (c.req.method === 'GET' || c.req.method === 'HEAD' || c.req.method === 'DELETE') return next();
  const text = await c.req.text();
  if (text.trim().length === 0) return next();
  if (!/^application\/(?:[\w.-]+\+)?json\b/i.test(c.req.header('content-type') ?? '')) {
    throw badRequest('body: must be sent with Content-Type: application/json');
  }
  try {
    JSON.parse(text);
  } catch {
    throw badRequest('body: is not valid JSON');
  }
  return next();
});
