import { describe, expect, it } from 'vitest';
import { HEALTH_ROUTES } from '../shared/http/health.ts';
import { Validator } from '@seriousme/openapi-schema-validator';
import { useTestApi } from './support/api.ts';
import { operations } from '../functions/catalogue.ts';
import { groupApps } from '../shared/local/groups.ts';

/**
 * The service describes itself: /v1/openapi.json is a valid OpenAPI 3.1 document, built
 * from the declarations, listing exactly the routes the group apps serve; /v1/docs is the
 * reference page. Both answer without a token.
 */
const api = useTestApi();

type Doc = { openapi: string; paths: Record<string, Record<string, { operationId: string; parameters: { name: string; in: string }[]; requestBody?: unknown; responses: Record<string, unknown> }>> };

async function fetchDocument(): Promise<{ res: Response; doc: Doc }> {
  const res = await fetch(`${api.url}/v1/openapi.json`);
  return { res, doc: await res.json() as Doc };
}

const methods = ['get', 'post', 'put', 'patch', 'delete'];
const documented = (doc: Doc) => Object.entries(doc.paths).flatMap(([path, item]) =>
  Object.keys(item).filter((m) => methods.includes(m)).map((m) => `${m.toUpperCase()} ${path}`));

describe('GET /v1/openapi.json', () => {
  it('answers without a token with a valid OpenAPI 3.1 document', async () => {
    const { res, doc } = await fetchDocument();
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(doc.openapi).toBe('3.1.0');
    const validator = new Validator();
    const result = await validator.validate(doc as unknown as Parameters<Validator['validate']>[0]);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it('describes every operation the group apps serve, and nothing else', async () => {
    const { doc } = await fetchDocument();
    // Routes actually registered on the group apps (middleware and the 404 handler aside).
    const served = new Set<string>();
    for (const app of Object.values(groupApps)) {
      for (const route of app.routes) {
        if (!methods.includes(route.method.toLowerCase()) || route.path.includes('*')) continue;
        const path = route.path.replace(/^\/v1/, '').replace(/:([A-Za-z0-9_]+)\{\.\+\}/g, '{$1}').replace(/:([A-Za-z0-9_]+)/g, '{$1}');
        // The description itself and the health check are public routes, not operations.
        if (path === '/openapi.json' || path === '/docs' || HEALTH_ROUTES.some((r) => r.path === path)) continue;
        served.add(`${route.method} ${path}`);
      }
    }
    expect(new Set(documented(doc))).toEqual(served);
    expect(documented(doc)).toHaveLength(operations.length);
  });

  it('gives every operation a unique operationId, its path parameters, body and declared answers', async () => {
    const { doc } = await fetchDocument();
    const ids = Object.values(doc.paths).flatMap((item) => Object.values(item).map((o) => o.operationId));
    expect(new Set(ids).size).toBe(ids.length);
    const createSpace = doc.paths['/orgs/{organizationId}/spaces']!.post!;
    expect(createSpace.operationId).toBe('createSpace');
    expect(createSpace.parameters).toEqual([expect.objectContaining({ name: 'organizationId', in: 'path', required: true })]);
    expect(createSpace.requestBody).toMatchObject({ content: { 'application/json': { schema: { type: 'object' } } } });
    expect(Object.keys(createSpace.responses)).toEqual(expect.arrayContaining(['201', '400', '401', '403', '404']));
    const listSpaces = doc.paths['/orgs/{organizationId}/spaces']!.get!;
    expect(listSpaces.parameters.map((p) => `${p.in}:${p.name}`)).toEqual(['path:organizationId', 'query:page', 'query:limit']);
    // The greedy page path is an ordinary parameter in OpenAPI.
    expect(doc.paths['/spaces/{spaceId}/content/path/{pagePath}']!.get!.operationId).toBe('getPageByPath');
  });

  it('states the role every operation needs, in its description and x-required-role', async () => {
    const unstated = operations.filter((o) => o.role === undefined || (typeof o.role === 'object' && !o.role.rule.trim()));
    expect(unstated.map((o) => o.operationId)).toEqual([]);
    const { doc } = await fetchDocument();
    const described = Object.values(doc.paths).flatMap((item) => Object.values(item)) as unknown as { description?: string; 'x-required-role'?: unknown }[];
    for (const o of described) {
      expect(o.description).toMatch(/^Requires: .+\.$/);
      expect(o['x-required-role']).toBeDefined();
    }
    const deleteComment = doc.paths['/spaces/{spaceId}/comments/{commentId}']!.delete! as unknown as { description: string; 'x-required-role': unknown };
    expect(deleteComment['x-required-role']).toEqual({ rule: expect.stringContaining('author') });
    expect(deleteComment.description).toContain('its author');
  });
});

describe('GET /v1/docs', () => {
  it('serves the API reference page without a token, with its own headers', async () => {
    const res = await fetch(`${api.url}/v1/docs`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await res.text();
    expect(html).toContain('/v1/openapi.json');
    expect(html).toContain('https://cdn.jsdelivr.net/npm/@scalar/api-reference');
    const csp = res.headers.get('content-security-policy')!;
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toMatch(/script-src https:\/\/cdn\.jsdelivr\.net 'sha256-[A-Za-z0-9+/=]+'/);
    expect(csp).not.toMatch(/script-src[^;]*'unsafe-inline'/);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('leaves every other route behind the token', async () => {
    const res = await fetch(`${api.url}/v1/orgs`);
    expect(res.status).toBe(401);
  });
});
