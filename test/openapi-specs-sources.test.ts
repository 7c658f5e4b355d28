import { describe, expect, it } from 'vitest';
import { newOrg, useTestApi, type TestOrg } from './support/api.ts';
import { createOpenAPISpec } from './support/factories.ts';
import { getJsonBlob } from '../shared/content/blobs.ts';
import { processedSpec } from './support/openapi-specs.ts';
import { useLoopbackServer } from './support/loopback-server.ts';

/** Sources as teams have them: unquoted YAML versions, a URL that answers a web page. */

const api = useTestApi();
const SWAGGER_YAML = 'swagger: 2.0\ninfo:\n  title: Legacy\n  version: "1"\npaths:\n  /a:\n    get:\n      responses:\n        "200": {description: ok}\n';

const specHost = useLoopbackServer((req, res) => {
  if (req.url === '/swagger.yaml') res.writeHead(200, { 'content-type': 'application/yaml' }).end(SWAGGER_YAML);
  else res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html>\n<html><body><form>Sign in</form></body></html>');
});

const processed = (org: TestOrg, slug: string) => processedSpec(org.id, slug);

describe('OpenAPI sources as written', () => {
  it('unquoted `swagger: 2.0` and `openapi: 3.1` (YAML numbers) are read as the versions they name', async () => {
    const org = await newOrg();
    await createOpenAPISpec(api, org, 'legacy', { url: `${specHost.url}/swagger.yaml` });
    await createOpenAPISpec(api, org, 'hooks', { text: 'openapi: 3.1\ninfo: {title: Hooks, version: "1"}\nwebhooks:\n  ping:\n    post:\n      responses:\n        "200": {description: ok}\n' });
    const legacy = await processed(org, 'legacy');
    expect(legacy.lastProcessedErrors).toEqual([]);
    expect(await getJsonBlob(legacy.lastVersionBlob!)).toMatchObject({ swagger: '2.0', info: { title: 'Legacy' } });
    const hooks = await processed(org, 'hooks');
    expect(hooks.lastProcessedErrors).toEqual([]);
    expect(await getJsonBlob(hooks.lastVersionBlob!)).toMatchObject({ openapi: '3.1', webhooks: { ping: {} } });
    const res = await api.request('GET', `/orgs/${org.id}/openapi/hooks`, { token: org.admin.token });
    expect(res.body).toMatchObject({ processingState: 'complete', lastVersion: hooks.lastVersion, lastProcessedErrorCount: 0 });
  });

  it('a URL answering a web page says so', async () => {
    const org = await newOrg();
    await createOpenAPISpec(api, org, 'page', { url: `${specHost.url}/login` });
    await processed(org, 'page');
    const res = await api.request('GET', `/orgs/${org.id}/openapi/page`, { token: org.admin.token });
    expect(res.body).toMatchObject({ processingState: 'complete', lastProcessErrorCode: 'PARSE_ERROR', lastProcessedErrorCount: 1 });
    expect(res.body.lastProcessedErrors).toEqual([{ code: 'NOT_AN_OBJECT', message: 'The document is HTML or XML, not an OpenAPI document in JSON or YAML (is the URL a web page rather than the spec file?)' }]);
    expect(res.body.lastVersion).toBeUndefined();
  });
});
