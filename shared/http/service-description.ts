import { fromHtml } from 'hast-util-from-html';
import { visit } from 'unist-util-visit';
import type { Element } from 'hast';
import { hashSource } from '../reader/security-headers.ts';
import { Hono } from 'hono';
import { publicRoutes } from './route.ts';
import { Scalar } from '@scalar/hono-api-reference';
import type { Operation } from './declare.ts';
import { buildOpenApiDocument } from './openapi.ts';
import type { AppEnv } from './env.ts';
import type { GroupName, HttpMethod } from './declare.ts';

/**
 * The service describing itself, without a token: GET /v1/openapi.json (the OpenAPI 3.1
 * document built from the declarations) and GET /v1/docs (Scalar's API reference page over
 * it). Served by one group's app (SERVICE_DESCRIPTION_GROUP) ahead of authentication, in
 * AWS (routes in infra/constructs/api.ts) and locally (shared/local/server.ts) alike.
 */

export const SERVICE_DESCRIPTION_GROUP: GroupName = 'organizations';

/** Paths relative to /v1, like the operations'. */
export const SERVICE_DESCRIPTION_ROUTES: readonly { method: HttpMethod; path: string }[] = [
  { method: 'GET', path: '/openapi.json' },
  { method: 'GET', path: '/docs' },
];


/** Where the reference page loads Scalar's standalone bundle from. */
const SCALAR_BUNDLE = 'https://cdn.jsdelivr.net/npm/@scalar/api-reference';

const renderDocs = Scalar({ url: '/v1/openapi.json', pageTitle: 'Docs publishing service API', cdn: SCALAR_BUNDLE });

/** The page's inline scripts (read with an HTML parser), allowed by hash rather than 'unsafe-inline'. */
function scriptHashes(html: string): string[] {
  const hashes: string[] = [];
  visit(fromHtml(html), 'element', (node: Element) => {
    if (node.tagName !== 'script' || node.properties.src !== undefined) return;
    hashes.push(hashSource(node.children.map((child) => (child.type === 'text' ? child.value : '')).join('')));
  });
  return hashes;
}

/**
 * The reference page runs Scalar from its CDN and calls only this origin (the document and
 * "try it" requests); it may not be framed.
 */
function docsHeaders(html: string): Record<string, string> {
  return {
    'Content-Security-Policy': [
      "default-src 'none'",
      `script-src https://cdn.jsdelivr.net ${scriptHashes(html).join(' ')}`,
      "style-src 'unsafe-inline' https://cdn.jsdelivr.net https://fonts.scalar.com",
      "font-src data: https://fonts.scalar.com https://cdn.jsdelivr.net",
      "img-src 'self' data: https:",
      "connect-src 'self'",
      "base-uri 'none'",
      "form-action 'none'",
      "frame-ancestors 'none'",
    ].join('; '),
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'no-referrer',
    'Cache-Control': 'public, max-age=300',
  };
}

/**
 * The public routes describing `operations` (the catalogue, functions/catalogue.ts), mounted
 * ahead of the group's middleware chain (shared/http/group-app.ts).
 */
export function serviceDescription(operations: readonly Operation[]) {
  let document: Record<string, unknown> | undefined;
  // Built on first use: the declarations do not change while the process runs.
  const serviceDocument = () => (document ??= buildOpenApiDocument(operations));
  return publicRoutes(new Hono<AppEnv>()
  .get('/openapi.json', (c) => {
    c.header('Cache-Control', 'public, max-age=300');
    c.header('Access-Control-Allow-Origin', '*');
    return c.json(serviceDocument());
  })
  .get('/docs', async (c) => {
    // Scalar's middleware is typed against its own copy of Hono; the Context is the same at run time.
    const page = await renderDocs(c as unknown as Parameters<typeof renderDocs>[0], async () => {});
    const html = await (page as Response).text();
    return c.html(html, 200, docsHeaders(html));
  }));
}
