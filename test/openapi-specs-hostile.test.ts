import { describe, expect, it } from 'vitest';
import { newOrg, useTestApi, type TestOrg } from './support/api.ts';
import { createOpenAPISpec } from './support/factories.ts';
import { getJsonBlob } from '../shared/content/blobs.ts';
import { processedSpec } from './support/openapi-specs.ts';
import { useLoopbackServer } from './support/loopback-server.ts';

/** Hostile spec sources: each ends as a readable PARSE_ERROR (or a stored document), never a stuck run. */

const api = useTestApi();
const hits: string[] = [];
const bomDoc = { openapi: '3.1.0', info: { title: 'BOM', version: '1' }, paths: {} };

// /bom.json: a spec saved with a byte order mark. Counts every other request: a spec's $refs
// must never make the service fetch anything.
const specHost = useLoopbackServer((req, res) => {
  if (req.url === '/bom.json') return void res.writeHead(200, { 'content-type': 'application/json' }).end(`\uFEFF${JSON.stringify(bomDoc)}`);
  hits.push(req.url ?? '');
  res.writeHead(200, { 'content-type': 'application/json' }).end('{"type":"string"}');
});


const processed = (org: TestOrg, slug: string) => processedSpec(org.id, slug);

const head = 'openapi: 3.0.3\ninfo: {title: T, version: "1"}\npaths: {}\n';

describe('hostile OpenAPI sources', () => {
  it('a deeply nested document is a DEPTH parse error, not a run that throws and stays in progress', async () => {
    const org = await newOrg();
    const deepJson = `{"openapi":"3.0.3","info":{"title":"T"},"paths":{},"x":${'['.repeat(20000)}${']'.repeat(20000)}}`;
    const deepYaml = `${head}x: ${'['.repeat(3000)}${']'.repeat(3000)}\n`;
    await createOpenAPISpec(api, org, 'deep-json', { text: deepJson });
    await createOpenAPISpec(api, org, 'deep-yaml', { text: deepYaml });
    for (const slug of ['deep-json', 'deep-yaml']) {
      const spec = await processed(org, slug);
      expect(spec, slug).toMatchObject({ lastProcessErrorCode: 'PARSE_ERROR', lastProcessedErrorCount: 1 });
      expect(spec.lastVersion, slug).toBeUndefined();
      const res = await api.request('GET', `/orgs/${org.id}/openapi/${slug}`, { token: org.admin.token });
      expect(res.status).toBe(200);
      expect(res.body.lastProcessedErrors, slug).toEqual([{ code: 'DEPTH', message: 'The document nests objects and arrays more than 128 levels deep' }]);
    }
  });

  it('billion-laughs aliases are an ALIASES error that says so; a few aliases are read', async () => {
    const org = await newOrg();
    let laughs = `${head}x-a0: &a0 ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]\n`;
    for (let i = 1; i < 10; i++) laughs += `x-a${i}: &a${i} [${Array(9).fill(`*a${i - 1}`).join(',')}]\n`;
    await createOpenAPISpec(api, org, 'laughs', { text: laughs });
    await createOpenAPISpec(api, org, 'few', { text: `${head}components:\n  schemas:\n    Id: &id {type: string}\n    Other: *id\n` });
    const laughed = await processed(org, 'laughs');
    expect(laughed.lastProcessErrorCode).toBe('PARSE_ERROR');
    expect(laughed.lastProcessedErrors).toEqual([{ code: 'ALIASES', message: expect.stringMatching(/^YAML aliases \(\*name\) expand to more than 100 copies/) }]);
    const few = await processed(org, 'few');
    expect(few.lastProcessErrorCode).toBeUndefined();
    expect(await getJsonBlob(few.lastVersionBlob!)).toMatchObject({ components: { schemas: { Id: { type: 'string' }, Other: { type: 'string' } } } });
  });

  it('a JSON spec with a byte order mark is read; a broken one names the position', async () => {
    const org = await newOrg();
    await createOpenAPISpec(api, org, 'bom', { url: `${specHost.url}/bom.json` });
    await createOpenAPISpec(api, org, 'broken', { text: '{"openapi": "3.0.0",\n "info": {"title": "x"\n' });
    const bom = await processed(org, 'bom');
    expect(bom.lastProcessErrorCode).toBeUndefined();
    expect(await getJsonBlob(bom.lastVersionBlob!)).toEqual(bomDoc);
    const broken = await processed(org, 'broken');
    expect(broken.lastProcessedErrors).toEqual([{ code: 'SYNTAX', message: expect.stringMatching(/^Invalid JSON syntax at line 3, column \d+/) }]);
  });

  it('never fetches the $refs of a spec (external URLs, loopback, file paths)', async () => {
    const org = await newOrg();
    const text = [
      head.replace('paths: {}\n', ''),
      'paths:',
      '  /pets:',
      '    get:',
      '      responses:',
      '        "200":',
      '          description: ok',
      '          content:',
      '            application/json:',
      `              schema: {$ref: "${specHost.url}/internal.json"}`,
      '        "404": {$ref: "file:///etc/passwd"}',
      '        "500": {$ref: "http://169.254.169.254/latest/meta-data/"}',
    ].join('\n');
    await createOpenAPISpec(api, org, 'refs', { text });
    const spec = await processed(org, 'refs');
    expect(spec.lastProcessErrorCode).toBeUndefined();
    expect(await getJsonBlob(spec.lastVersionBlob!)).toMatchObject({
      paths: { '/pets': { get: { responses: { 404: { $ref: 'file:///etc/passwd' } } } } },
    });
    expect(hits).toEqual([]);
  });
});
