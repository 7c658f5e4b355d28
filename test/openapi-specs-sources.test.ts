import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { newOrg, useTestApi, type TestOrg } from './support/api.ts';
import { createOpenAPISpec } from './support/factories.ts';
import { getJsonBlob } from '../shared/content/blobs.ts';
import { processedSpec } from './support/openapi-specs.ts';

/** Sources as teams have them: unquoted YAML versions, a URL that answers a web page. */

const api = useTestApi();
let server: Server;
let served: string;
const SWAGGER_YAML = 'swagger: 2.0\ninfo:\n  title: Legacy\n  version: "1"\npaths:\n  /a:\n    get:\n      responses:\n        "200": {description: ok}\n';

beforeAll(async () => {
  server = createServer((req, res) => {
    if (req.url === '/swagger.yaml') res.writeHead(200, { 'content-type': 'application/yaml' }).end(SWAGGER_YAML);
    else res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html>\n<html><body><form>Sign in</form></body></html>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  served = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

const processed = (org: TestOrg, slug: string) => processedSpec(org.id, slug);

describe('OpenAPI sources as written', () => {
  it('unquoted `swagger: 2.0` and `openapi: 3.1` (YAML numbers) are read as the versions they name', async () => {
    const org = await newOrg();
    await createOpenAPISpec(api, org, 'legacy', { url: `${served}/swagger.yaml` });
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
    await createOpenAPISpec(api, org, 'page', { url: `${served}/login` });
    await processed(org, 'page');
    const res = await api.request('GET', `/orgs/${org.id}/openapi/page`, { token: org.admin.token });
    expect(res.body).toMatchObject({ processingState: 'complete', lastProcessErrorCode: 'PARSE_ERROR', lastProcessedErrorCount: 1 });
    expect(res.body.lastProcessedErrors).toEqual([{ code: 'NOT_AN_OBJECT', message: 'The document is HTML or XML, not an OpenAPI document in JSON or YAML (is the URL a web page rather than the spec file?)' }]);
    expect(res.body.lastVersion).toBeUndefined();
  });
});
