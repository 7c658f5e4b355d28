import { describe, expect, it } from 'vitest';
import { newOrg, newUser, useTestApi, type TestOrg } from './support/api.ts';
import { createOpenAPISpec } from './support/factories.ts';
import { openAPISpecEntity } from '../shared/db/entities/openapi-spec.ts';
import { getJsonBlob } from '../shared/content/blobs.ts';
import { pollOnce } from '../shared/local/queue-poller.ts';
import { openAPIFetchLimits, parseOpenAPIDocument } from '../shared/commands/openapi/process.ts';
import { storedLike } from './support/stored.ts';
import { processedSpec, storedSpec } from './support/openapi-specs.ts';
import { useLoopbackServer } from './support/loopback-server.ts';

const api = useTestApi();
const petstore = {
  openapi: '3.0.3',
  info: { title: 'Petstore', version: '1.0.0' },
  paths: { '/pets': { get: { responses: { 200: { description: 'ok' } } } } },
};
const yamlSpec = 'swagger: "2.0"\ninfo:\n  title: YAML API\n  version: "1"\npaths:\n  /a:\n    get:\n      responses:\n        "200":\n          description: ok\n';

// A tiny spec server on 127.0.0.1: /petstore.json, /spec.yaml, /missing (404), /slow (never answers in time), /big.
const specHost = useLoopbackServer((req, res) => {
  if (req.url === '/petstore.json') res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(petstore));
  else if (req.url === '/spec.yaml') res.writeHead(200, { 'content-type': 'application/yaml' }).end(yamlSpec);
  else if (req.url === '/not-openapi') res.writeHead(200, { 'content-type': 'application/json' }).end('{"hello": "world"}');
  else if (req.url === '/slow') setTimeout(() => res.writeHead(200).end('{}'), 3000);
  else if (req.url === '/big') res.writeHead(200).end('x'.repeat(4096));
  else res.writeHead(404).end('not found');
});

const base = (org: TestOrg) => `/orgs/${org.id}/openapi`;
const stored = (org: TestOrg, slug: string) => storedSpec(org.id, slug);

const processed = (org: TestOrg, slug: string) => processedSpec(org.id, slug);


describe('POST /orgs/{organizationId}/openapi', () => {
  it('creates a pending spec, then the jobs queue fetches, parses and stores it', async () => {
    const org = await newOrg();
    const creator = await org.member('create');
    const url = `${specHost.url}/petstore.json`;
    const res = await api.request('POST', base(org), { token: creator.token, body: { slug: 'petstore-v1', source: { url } } });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      object: 'openapi-spec', id: expect.any(String), createdAt: expect.any(String), updatedAt: expect.any(String),
      slug: 'petstore-v1', sourceURL: url, processingState: 'pending', visibility: 'private',
      lastProcessedErrors: [], lastProcessedErrorCount: 0,
      permissions: { view: true, edit: true },
      urls: { location: `${api.url}/v1/orgs/${org.id}/openapi/petstore-v1`, app: expect.any(String) },
    });
    expect(res.headers.get('location')).toBe(res.body.urls.location);
    const spec = await processed(org, 'petstore-v1');
    expect(spec).toMatchObject({ processingState: 'complete', lastVersion: expect.any(String), lastProcessedAt: expect.any(String) });
    expect(spec.lastProcessErrorCode).toBeUndefined();
    expect(await getJsonBlob(spec.lastVersionBlob!)).toEqual(petstore);
    const read = await api.request('GET', `${base(org)}/petstore-v1`, { token: creator.token });
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({ processingState: 'complete', lastVersion: spec.lastVersion, lastProcessedAt: spec.lastProcessedAt, lastProcessedErrors: [] });
  });

  it('takes inline text (YAML or JSON) as the second source variant', async () => {
    const org = await newOrg();
    const created = await createOpenAPISpec(api, org, 'yaml', { text: yamlSpec });
    expect(created.sourceURL).toBeUndefined();
    const spec = await processed(org, 'yaml');
    expect(spec.lastVersion).toEqual(expect.any(String));
    expect(await getJsonBlob(spec.lastVersionBlob!)).toMatchObject({ swagger: '2.0', info: { title: 'YAML API' } });
    await createOpenAPISpec(api, org, 'json', { text: JSON.stringify(petstore) });
    expect(await getJsonBlob((await processed(org, 'json')).lastVersionBlob!)).toEqual(petstore);
  });

  it('records fetch and parse failures with their code and errors', async () => {
    const org = await newOrg();
    await createOpenAPISpec(api, org, 'missing', { url: `${specHost.url}/missing` });
    await createOpenAPISpec(api, org, 'refused', { url: 'http://127.0.0.1:1/spec.json' });
    await createOpenAPISpec(api, org, 'not-openapi', { url: `${specHost.url}/not-openapi` });
    await createOpenAPISpec(api, org, 'broken', { text: '{"openapi": ' });
    for (const [slug, code] of [['missing', 'FETCH_ERROR'], ['refused', 'FETCH_ERROR'], ['not-openapi', 'PARSE_ERROR'], ['broken', 'PARSE_ERROR']] as const) {
      const spec = await processed(org, slug);
      expect(spec, slug).toMatchObject({ processingState: 'complete', lastProcessErrorCode: code, lastProcessedAt: expect.any(String) });
      expect(spec.lastVersion, slug).toBeUndefined();
      expect(spec.lastProcessedErrors!.length, slug).toBeGreaterThan(0);
    }
    const res = await api.request('GET', `${base(org)}/not-openapi`, { token: org.admin.token });
    expect(res.body.lastProcessErrorCode).toBe('PARSE_ERROR');
    expect(res.body.lastProcessedErrors.map((e: { code: string }) => e.code)).toEqual(['VERSION', 'INFO', 'PATHS']);
    expect(res.body.lastProcessedErrorCount).toBe(3);
  });

  it('times out slow sources (FETCH_TIMEOUT) and caps their size', async () => {
    const org = await newOrg();
    const limits = { ...openAPIFetchLimits };
    Object.assign(openAPIFetchLimits, { timeoutMs: 300, maxBytes: 1024 });
    try {
      await createOpenAPISpec(api, org, 'slow', { url: `${specHost.url}/slow` });
      await createOpenAPISpec(api, org, 'big', { url: `${specHost.url}/big` });
      expect(await processed(org, 'slow')).toMatchObject({ lastProcessErrorCode: 'FETCH_TIMEOUT' });
      const big = await processed(org, 'big');
      expect(big.lastProcessErrorCode).toBe('FETCH_ERROR');
      expect(big.lastProcessedErrors![0]!.message).toMatch(/larger than 1024 bytes/);
    } finally {
      Object.assign(openAPIFetchLimits, limits);
    }
  });

  it('rejects bad bodies naming the field, and a taken slug with 409', async () => {
    const org = await newOrg();
    const url = `${specHost.url}/petstore.json`;
    for (const [body, field] of [
      [{ source: { url } }, 'slug'], [{ slug: '', source: { url } }, 'slug'], [{ slug: 'bad slug', source: { url } }, 'slug'],
      [{ slug: '-x', source: { url } }, 'slug'], [{ slug: 'a--b', source: { url } }, 'slug'], [{ slug: 'x'.repeat(101), source: { url } }, 'slug'],
      [{ slug: 'ok' }, 'source'], [{ slug: 'ok', source: { url: 'ftp://example.com/a.json' } }, 'source'],
      [{ slug: 'ok', source: { url: 'not a url' } }, 'source'], [{ slug: 'ok', source: { url: `https://e.com/${'a'.repeat(2048)}` } }, 'source'],
      [{ slug: 'ok', source: { text: '' } }, 'source'], [{ slug: 'ok', source: {} }, 'source'], [{ slug: 'ok', source: { url }, extra: 1 }, 'extra'],
    ] as const) {
      const res = await api.request('POST', base(org), { token: org.admin.token, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.message, JSON.stringify(body)).toMatch(new RegExp(`^${field}[.:]`));
    }
    expect((await api.request('GET', base(org), { token: org.admin.token })).body.items).toEqual([]);
    expect(await storedLike(openAPISpecEntity.key({ orgId: org.id, slug: '' }))).toEqual([]);
    await createOpenAPISpec(api, org, 'Api-V2', { url });
    const taken = await api.request('POST', base(org), { token: org.admin.token, body: { slug: 'Api-V2', source: { text: '{}' } } });
    expect(taken.status).toBe(409);
    expect((await stored(org, 'Api-V2'))!.sourceURL).toBe(url);
    // Slugs are per organization.
    const other = await newOrg();
    await createOpenAPISpec(api, other, 'Api-V2', { url });
  });

  it('needs the create role: 403 below, 404 across organizations, 401 without a token', async () => {
    const org = await newOrg();
    const body = { slug: 'nope', source: { url: `${specHost.url}/petstore.json` } };
    for (const role of ['review', 'edit', 'read', null] as const) {
      const m = await org.member(role);
      expect((await api.request('POST', base(org), { token: m.token, body })).status, String(role)).toBe(403);
    }
    const other = await newOrg();
    expect((await api.request('POST', base(org), { token: other.admin.token, body })).status).toBe(404);
    expect((await api.request('POST', base(org), { body })).status).toBe(401);
    expect(await stored(org, 'nope')).toBeUndefined();
  });
});

describe('GET /orgs/{organizationId}/openapi', () => {
  it('lists the org specs with pagination; members read, guests and strangers do not', async () => {
    const org = await newOrg();
    for (const slug of ['a', 'b', 'c', 'd', 'e']) await createOpenAPISpec(api, org, slug, { text: JSON.stringify(petstore) });
    const other = await newOrg();
    await createOpenAPISpec(api, other, 'z', { text: '{}' });
    const reader = await org.member('read');
    const first = await api.request('GET', base(org), { token: reader.token, query: { limit: 2 } });
    expect(first.status).toBe(200);
    expect(first.body.count).toBe(2);
    expect(first.body.next.page).toEqual(expect.any(String));
    expect(first.body.items[0]).toMatchObject({ object: 'openapi-spec', permissions: { view: true, edit: false } });
    const slugs: string[] = first.body.items.map((s: { slug: string }) => s.slug);
    let page = first.body.next?.page;
    while (page) {
      const res = await api.request('GET', base(org), { token: reader.token, query: { limit: 2, page } });
      slugs.push(...res.body.items.map((s: { slug: string }) => s.slug));
      page = res.body.next?.page;
    }
    expect(slugs.sort()).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect((await api.request('GET', base(org), { token: reader.token, query: { limit: 0 } })).body.error.message).toMatch(/^limit: /);
    const guest = await org.member(null);
    expect((await api.request('GET', base(org), { token: guest.token })).status).toBe(403);
    expect((await api.request('GET', base(org), { token: other.admin.token })).status).toBe(404);
    expect((await api.request('GET', base(org))).status).toBe(401);
    expect((await api.request('GET', `${base(org)}/a`, { token: guest.token })).status).toBe(403);
    expect((await api.request('GET', `${base(org)}/a`, { token: other.admin.token })).status).toBe(404);
    expect((await api.request('GET', `${base(other)}/a`, { token: other.admin.token })).status).toBe(404);
    expect((await api.request('GET', `${base(org)}/a`)).status).toBe(401);
  });
});

describe('PUT /orgs/{organizationId}/openapi/{specSlug}', () => {
  it('creates (201) or replaces the source (200) and processes again', async () => {
    const org = await newOrg();
    const created = await api.request('PUT', `${base(org)}/api`, { token: org.admin.token, body: { source: { url: `${specHost.url}/petstore.json` } } });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ slug: 'api', processingState: 'pending', sourceURL: `${specHost.url}/petstore.json` });
    const first = await processed(org, 'api');
    const replaced = await api.request('PUT', `${base(org)}/api`, { token: org.admin.token, body: { source: { text: yamlSpec } } });
    expect(replaced.status).toBe(200);
    expect(replaced.body).toMatchObject({ id: created.body.id, processingState: 'pending', lastVersion: first.lastVersion });
    expect(replaced.body.sourceURL).toBeUndefined();
    const second = await processed(org, 'api');
    expect(second.lastVersion).not.toBe(first.lastVersion);
    expect(await getJsonBlob(second.lastVersionBlob!)).toMatchObject({ info: { title: 'YAML API' } });
    // A failing new source keeps the last good version and reports the error.
    await api.request('PUT', `${base(org)}/api`, { token: org.admin.token, body: { source: { url: `${specHost.url}/missing` } } });
    const third = await processed(org, 'api');
    expect(third).toMatchObject({ lastVersion: second.lastVersion, lastProcessErrorCode: 'FETCH_ERROR' });
    // Back to a good source: the error goes.
    await api.request('PUT', `${base(org)}/api`, { token: org.admin.token, body: { source: { text: JSON.stringify(petstore) } } });
    const fourth = await processed(org, 'api');
    expect(fourth.lastProcessErrorCode).toBeUndefined();
    expect(fourth.lastProcessedErrors).toEqual([]);
  });

  it('a superseded processing run writes nothing', async () => {
    const org = await newOrg();
    const created = await createOpenAPISpec(api, org, 'race', { text: JSON.stringify(petstore) });
    await api.request('PUT', `${base(org)}/race`, { token: org.admin.token, body: { source: { text: yamlSpec } } });
    const spec = await processed(org, 'race');
    expect(spec.id).toBe(created.id);
    expect(await getJsonBlob(spec.lastVersionBlob!)).toMatchObject({ info: { title: 'YAML API' } });
  });

  it('validates, and needs the create role', async () => {
    const org = await newOrg();
    for (const [path, body, field] of [
      ['ok', {}, 'source'], ['ok', { source: { url: 'mailto:a@b.c' } }, 'source'], ['ok', { source: { text: 'x' }, slug: 'y' }, 'slug'],
      ['bad_slug', { source: { text: 'x' } }, 'specSlug'],
    ] as const) {
      const res = await api.request('PUT', `${base(org)}/${path}`, { token: org.admin.token, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.message).toMatch(new RegExp(`^${field}[.:]`));
    }
    const editor = await org.member('edit');
    const body = { source: { text: 'x' } };
    expect((await api.request('PUT', `${base(org)}/x`, { token: editor.token, body })).status).toBe(403);
    expect((await api.request('PUT', `${base(org)}/x`, { token: (await newUser()).token, body })).status).toBe(404);
    expect((await api.request('PUT', `${base(org)}/x`, { body })).status).toBe(401);
    expect(await stored(org, 'x')).toBeUndefined();
  });
});

describe('PATCH and DELETE /orgs/{organizationId}/openapi/{specSlug}', () => {
  it('sets the visibility (published URL when public)', async () => {
    const org = await newOrg();
    await createOpenAPISpec(api, org, 'vis', { text: JSON.stringify(petstore) });
    const res = await api.request('PATCH', `${base(org)}/vis`, { token: org.admin.token, body: { visibility: 'public' } });
    expect(res.status).toBe(200);
    expect(res.body.visibility).toBe('public');
    expect(res.body.urls.published).toBe(`${api.url}/s/~openapi/${org.id}/vis`);
    expect((await stored(org, 'vis'))!.visibility).toBe('public');
    const back = await api.request('PATCH', `${base(org)}/vis`, { token: org.admin.token, body: { visibility: 'private' } });
    expect(back.body.visibility).toBe('private');
    expect(back.body.urls.published).toBeUndefined();
    for (const body of [{}, { visibility: 'secret' }, { visibility: 'public', slug: 'x' }]) {
      const bad = await api.request('PATCH', `${base(org)}/vis`, { token: org.admin.token, body });
      expect(bad.status, JSON.stringify(body)).toBe(400);
      expect(bad.body.error.message).toMatch(/^(visibility|slug): /);
    }
    expect((await api.request('PATCH', `${base(org)}/nope`, { token: org.admin.token, body: { visibility: 'public' } })).status).toBe(404);
    const reader = await org.member('read');
    expect((await api.request('PATCH', `${base(org)}/vis`, { token: reader.token, body: { visibility: 'public' } })).status).toBe(403);
    const other = await newOrg();
    expect((await api.request('PATCH', `${base(org)}/vis`, { token: other.admin.token, body: { visibility: 'public' } })).status).toBe(404);
    expect((await api.request('PATCH', `${base(org)}/vis`, { body: { visibility: 'public' } })).status).toBe(401);
  });

  it('deletes with 204, also when absent; needs the create role', async () => {
    const org = await newOrg();
    await createOpenAPISpec(api, org, 'gone', { text: JSON.stringify(petstore) });
    const reader = await org.member('read');
    expect((await api.request('DELETE', `${base(org)}/gone`, { token: reader.token })).status).toBe(403);
    const other = await newOrg();
    expect((await api.request('DELETE', `${base(org)}/gone`, { token: other.admin.token })).status).toBe(404);
    expect((await api.request('DELETE', `${base(org)}/gone`)).status).toBe(401);
    expect(await stored(org, 'gone')).toBeDefined();
    const creator = await org.member('create');
    expect((await api.request('DELETE', `${base(org)}/gone`, { token: creator.token })).status).toBe(204);
    expect(await stored(org, 'gone')).toBeUndefined();
    expect((await api.request('DELETE', `${base(org)}/gone`, { token: creator.token })).status).toBe(204);
    expect((await api.request('GET', `${base(org)}/gone`, { token: creator.token })).status).toBe(404);
    // Its queued processing run finds nothing and writes nothing.
    for (let i = 0; i < 3; i++) await pollOnce('jobs', 0);
    expect(await stored(org, 'gone')).toBeUndefined();
  });
});

describe('parseOpenAPIDocument', () => {
  it('accepts OpenAPI 3.x and Swagger 2.0, refuses the rest', () => {
    expect(parseOpenAPIDocument(JSON.stringify(petstore))).toEqual(petstore);
    expect(parseOpenAPIDocument('openapi: 3.1.0\ninfo: {title: W}\nwebhooks: {}\n')).toMatchObject({ openapi: '3.1.0' });
    for (const text of ['[]', 'just text', 'openapi: 4.0.0\ninfo: {title: T}\npaths: {}', 'swagger: "1.2"\ninfo: {title: T}\npaths: {}']) {
      expect(() => parseOpenAPIDocument(text), text).toThrow();
    }
  });
});
