/**
 * Answers as they leave a Lambda behind API Gateway (HTTP API): compressed for clients that
 * accept it (API Gateway does not compress), and, when still larger than a Lambda answer can
 * be (6 MB), stored and redirected to instead of failing with API Gateway's 500. The Lambda
 * entries run behind test/support/api-gateway.ts, which fails an oversized result as the
 * real pair does.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { request as httpRequest } from 'node:http';
import { createHash, randomBytes } from 'node:crypto';
import { gunzipSync, gzipSync, inflateSync } from 'node:zlib';
import { handle } from 'hono/aws-lambda';
import { HeadObjectCommand, ListObjectsV2Command } from '@aws-sdk/client-s3';
import { newOrg, useTestApi, type TestOrg } from './support/api.ts';
import { useApiGateway, type GatewayHandler } from './support/api-gateway.ts';
import { useLoopbackServer } from './support/loopback-server.ts';
import { officialClient } from './support/official-client.ts';
import { publishedSite, spaceWithPages, GUIDE_MARKDOWN } from './support/reader-site.ts';
import { createChangeRequest } from './support/factories.ts';
import { app as contentApp } from '../functions/content/app.ts';
import { handler as readerHandler } from '../functions/reader/handler.ts';
import { httpEntry } from '../shared/http/lambda-entry.ts';
import { ANSWERS_PREFIX, MAX_BINARY_ANSWER_BYTES, STORED_ANSWER_URL_SECONDS } from '../shared/http/oversized-answers.ts';
import { MIN_COMPRESSED_BYTES } from '../shared/http/compress-answers.ts';
import { s3 } from '../shared/aws/clients.ts';
import { config } from '../shared/config.ts';

const api = useTestApi();
let org: TestOrg;
let space: { id: string };
/** GET /content of the space as the local server answers it, uncompressed. */
let content: { bytes: number; body: unknown };
/** A Lambda answer limit between the tree's compressed and uncompressed sizes (the real 6 MB would need ~9,000 pages). */
let limit = 0;
/** The content group's Lambda entry told that limit. */
let contentEntry: GatewayHandler;

const gateway = useApiGateway(() => ({ routes: { '/v1/': contentEntry }, answerLimitBytes: limit }));
/** The same group without storing oversized answers, as every entry was before. */
const bareGateway = useApiGateway(() => ({ routes: { '/v1/': handle(contentApp) as unknown as GatewayHandler }, answerLimitBytes: limit }));
/** The reader's production entry, with Lambda's real limit. */
const readerGateway = useApiGateway(() => ({ routes: { '/s/': readerHandler as unknown as GatewayHandler } }));

interface RawAnswer { status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }

/** One request with node:http: no `Accept-Encoding` unless given (fetch always adds one). */
function raw(url: string, headers: Record<string, string> = {}): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    httpRequest(url, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    }).on('error', reject).end();
  });
}

async function storedAnswerKeys(): Promise<string[]> {
  const keys: string[] = [];
  let token: string | undefined;
  do {
    const page = await s3().send(new ListObjectsV2Command({ Bucket: config.bucketName, Prefix: ANSWERS_PREFIX, ContinuationToken: token }));
    keys.push(...(page.Contents ?? []).map((o) => o.Key!));
    token = page.NextContinuationToken;
  } while (token);
  return keys;
}

beforeAll(async () => {
  org = await newOrg();
  space = await spaceWithPages(api, org, 'Big tree', Array.from({ length: 40 }, (_, i) => `# Page ${i}\n\n${GUIDE_MARKDOWN}`));
  const local = await raw(`${api.url}/v1/spaces/${space.id}/content`, { authorization: `Bearer ${org.admin.token}` });
  expect(local.status).toBe(200);
  expect(local.headers['content-encoding']).toBeUndefined();
  content = { bytes: local.body.length, body: JSON.parse(local.body.toString('utf8')) };
  limit = Math.floor(content.bytes * 0.9);
  // Room for the gzipped tree in the result's JSON (base64) and its headers.
  expect(Math.ceil(gzipSync(local.body).length / 3) * 4 + 16 * 1024).toBeLessThan(limit);
  contentEntry = httpEntry(contentApp, { answerLimitBytes: limit });
}, 120_000);

describe('answers larger than a Lambda can return', () => {
  it('failed with API Gateway\'s 500 before: the emulated gateway fails an oversized result as the real pair does', async () => {
    const answer = await raw(`${bareGateway.url}/v1/spaces/${space.id}/content`, { authorization: `Bearer ${org.admin.token}` });
    expect(answer.status).toBe(500);
    expect(JSON.parse(answer.body.toString())).toEqual({ message: 'Internal Server Error' });
  });

  it('are stored under answers/ and redirected to with 303 and a 15-minute presigned URL: the same bytes and type', async () => {
    const before = await storedAnswerKeys();
    const answer = await raw(`${gateway.url}/v1/spaces/${space.id}/content`, { authorization: `Bearer ${org.admin.token}` });
    expect(answer.status, answer.body.toString()).toBe(303);
    expect(answer.body.length).toBe(0);
    expect(answer.headers['cache-control']).toBe('no-store');
    expect(answer.headers['x-request-id']).toBeTruthy();
    expect(answer.headers['content-type']).toBeUndefined();
    const location = new URL(String(answer.headers.location));
    expect(location.pathname).toMatch(new RegExp(`/${ANSWERS_PREFIX}\\d{4}-\\d{2}-\\d{2}/[0-9a-f-]{36}$`));
    expect(location.searchParams.get('X-Amz-Expires')).toBe(String(STORED_ANSWER_URL_SECONDS));

    const stored = await raw(location.href);
    expect(stored.status).toBe(200);
    expect(stored.headers['content-type']).toMatch(/^application\/json/);
    expect(stored.body.length).toBe(content.bytes);
    expect(JSON.parse(stored.body.toString('utf8'))).toEqual(content.body);

    // Stored effect: one new object under answers/, typed and never cached.
    const added = (await storedAnswerKeys()).filter((k) => !before.includes(k));
    expect(added).toHaveLength(1);
    expect(location.pathname.endsWith(`/${added[0]}`)).toBe(true);
    const head = await s3().send(new HeadObjectCommand({ Bucket: config.bucketName, Key: added[0]! }));
    expect(head.ContentType).toMatch(/^application\/json/);
    expect(head.CacheControl).toBe('no-store');
  });

  it('reach the official client (@gitbook/api) whole: it follows the redirect', async () => {
    const client = officialClient({ ...api, url: gateway.url }, org.admin.token);
    const { data } = await client.spaces.getCurrentRevision(space.id);
    expect(data).toEqual(content.body);
  });

  it('fit when the client accepts gzip: 200, compressed, nothing stored', async () => {
    const before = await storedAnswerKeys();
    const answer = await raw(`${gateway.url}/v1/spaces/${space.id}/content`, { authorization: `Bearer ${org.admin.token}`, 'accept-encoding': 'gzip, deflate, br' });
    expect(answer.status).toBe(200);
    expect(answer.headers['content-encoding']).toBe('gzip');
    expect(answer.headers.vary).toMatch(/accept-encoding/i);
    expect(answer.body.length).toBeLessThan(content.bytes / 3);
    expect(JSON.parse(gunzipSync(answer.body).toString('utf8'))).toEqual(content.body);
    expect(await storedAnswerKeys()).toEqual(before);
  });

  it('are never errors: a 404 of the same size passes through as it is', async () => {
    const answer = await raw(`${gateway.url}/v1/spaces/${space.id}x/content`, { authorization: `Bearer ${org.admin.token}` });
    expect(answer.status).toBeGreaterThanOrEqual(400);
    expect(answer.status).toBeLessThan(500);
    expect(JSON.parse(answer.body.toString()).error.code).toBe(answer.status);
  });
});

describe('small answers', () => {
  // gzip of a 1 KB answer cost ~250 µs of CPU (a quarter of a GET /spaces/{id}) and saved nothing.
  it('go uncompressed with their length when under MIN_COMPRESSED_BYTES, locally and through API Gateway; larger ones are gzipped', async () => {
    const headers = { authorization: `Bearer ${org.admin.token}`, 'accept-encoding': 'gzip, deflate, br' };
    const small = await raw(`${api.url}/v1/spaces/${space.id}`, headers);
    expect(small.status).toBe(200);
    expect(JSON.parse(small.body.toString('utf8'))).toMatchObject({ object: 'space', id: space.id });
    // The content group's Lambda entry behind the gateway: a 404 of a space that does not exist.
    const error = await raw(`${gateway.url}/v1/spaces/${space.id}x/content`, headers);
    expect(error.status).toBe(404);
    expect(JSON.parse(error.body.toString('utf8')).error.code).toBe(404);
    for (const answer of [small, error]) {
      expect(answer.body.length).toBeLessThan(MIN_COMPRESSED_BYTES);
      expect(answer.headers['content-encoding']).toBeUndefined();
      expect(answer.headers['content-length']).toBe(String(answer.body.length));
      expect(answer.headers['content-type']).toMatch(/^application\/json/);
    }
    const large = await raw(`${api.url}/v1/spaces/${space.id}/content`, headers);
    expect(large.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(gunzipSync(large.body).toString('utf8'))).toEqual(content.body);
  });

  it('the page tree answers keep their gzip (made once): served to clients that accept gzip, and only to them', async () => {
    const get = (path: string, encoding?: string) => raw(`${api.url}/v1/spaces/${space.id}${path}`, { authorization: `Bearer ${org.admin.token}`, ...(encoding ? { 'accept-encoding': encoding } : {}) });
    for (const path of ['/content', '/content/pages']) {
      const plain = await get(path);
      expect(plain.headers['content-encoding']).toBeUndefined();
      for (const encoding of ['gzip, deflate, br', 'br;q=1, *;q=0.5', 'GZIP']) {
        const gzipped = await get(path, encoding);
        expect(gzipped.status).toBe(200);
        expect(gzipped.headers['content-encoding'], encoding).toBe('gzip');
        expect(gzipped.headers.vary).toMatch(/accept-encoding/i);
        expect(gzipped.headers['content-length']).toBe(String(gzipped.body.length));
        expect(gunzipSync(gzipped.body).equals(plain.body), `${path} ${encoding}`).toBe(true);
      }
      // gzip refused: the middleware's deflate, as for any other answer.
      const deflated = await get(path, 'gzip;q=0, deflate');
      expect(deflated.headers['content-encoding']).toBe('deflate');
      expect(inflateSync(deflated.body).equals(plain.body)).toBe(true);
      const identity = await get(path, 'identity');
      expect(identity.headers['content-encoding']).toBeUndefined();
      expect(identity.body.equals(plain.body)).toBe(true);
    }
  });
});

describe('files on published sites larger than a Lambda answer', () => {
  const big = randomBytes(MAX_BINARY_ANSWER_BYTES + 1024);
  const small = randomBytes(64 * 1024);
  const files = useLoopbackServer((req, res) => res.writeHead(200, { 'content-type': 'application/zip' }).end(req.url?.includes('big') ? big : small));
  const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
  let base = '';
  /** The same site on the local server. */
  let localBase = '';

  beforeAll(async () => {
    // Release notes: a page whose markdown is over MIN_COMPRESSED_BYTES (its .md is gzipped too).
    const notes = Array.from({ length: 40 }, (_, i) => `- Release ${i + 1}: the archives gained a checksum file and a signature.`).join('\n');
    const docs = await spaceWithPages(api, org, 'Downloads', ['# Downloads\n\nThe archives.\n', `# Release notes\n\n${notes}\n`]);
    const cr = await createChangeRequest(api, org, docs, { subject: 'Archives' });
    const path = `/spaces/${docs.id}/change-requests/${cr.id}`;
    const inserted = await api.request('POST', `${path}/content`, { token: org.admin.token, body: { changes: [{ operation: 'insert_files', files: [{ name: 'big.zip', url: `${files.url}/big.zip` }, { name: 'small.zip', url: `${files.url}/small.zip` }] }] } });
    expect(inserted.status, JSON.stringify(inserted.body)).toBe(200);
    expect((await api.request('POST', `${path}/merge`, { token: org.admin.token })).status).toBe(200);
    const site = await publishedSite(api, org, [docs.id], 'public');
    localBase = site.url;
    base = site.url.replace(api.url, readerGateway.url);
  }, 120_000);

  it('are sent from the bucket: 302 to a presigned URL named and typed as the file, cached briefly', async () => {
    const answer = await raw(`${base}/~files/${sha256(big)}/big.zip`);
    expect(answer.status, answer.body.toString().slice(0, 300)).toBe(302);
    expect(answer.headers['cache-control']).toBe('public, max-age=300');
    const location = new URL(String(answer.headers.location));
    expect(location.pathname).toMatch(new RegExp(`/blobs/${sha256(big)}$`));
    // S3 answers with the type and name the signed URL asks for (fauxqs, the emulator, ignores these parameters).
    expect(location.searchParams.get('response-content-type')).toBe('application/octet-stream');
    expect(location.searchParams.get('response-content-disposition')).toBe('attachment; filename="big.zip"');
    const downloaded = await raw(location.href);
    expect(downloaded.status).toBe(200);
    expect(sha256(downloaded.body)).toBe(sha256(big));
  });

  it('smaller files still come from the site itself, under its sandbox policy', async () => {
    const answer = await raw(`${base}/~files/${sha256(small)}/small.zip`);
    expect(answer.status).toBe(200);
    expect(answer.headers['content-security-policy']).toBe("default-src 'none'; sandbox");
    expect(sha256(answer.body)).toBe(sha256(small));
  });

  it('pages are gzipped for browsers: the ETag turns weak and still answers 304', async () => {
    const page = await raw(localBase, { 'accept-encoding': 'gzip, deflate, br' });
    expect(page.status).toBe(200);
    expect(page.headers['content-encoding']).toBe('gzip');
    const etag = String(page.headers.etag);
    expect(etag).toMatch(/^W\/"/);
    expect(gunzipSync(page.body).toString('utf8')).toContain('The archives.');
    const again = await raw(localBase, { 'accept-encoding': 'gzip, deflate, br', 'if-none-match': etag });
    expect(again.status).toBe(304);
    // Without Accept-Encoding: as before, plain and with the strong ETag.
    const plain = await raw(localBase);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers.etag).toBe(etag.slice(2));
  });

  it('a page viewed again is sent with the gzip kept beside its rendering: whole, with its length, for the HTML and the markdown alike', async () => {
    for (const path of ['', '/release-notes', '/release-notes.md']) {
      const url = `${localBase}${path}`;
      const plain = await raw(url);
      expect(plain.status).toBe(200);
      const views = [await raw(url, { 'accept-encoding': 'gzip, deflate, br' }), await raw(url, { 'accept-encoding': 'gzip' })];
      for (const view of views) {
        expect(view.headers['content-encoding'], path).toBe('gzip');
        // The middleware streams what it compresses (no length); a kept gzip is sent whole.
        expect(view.headers['content-length'], path).toBe(String(view.body.length));
        expect(view.headers.vary).toMatch(/accept-encoding/i);
        expect(view.headers.etag).toBe(`W/${plain.headers.etag}`);
        expect(gunzipSync(view.body).equals(plain.body), path).toBe(true);
      }
      // gzip refused: the middleware's deflate of the same bytes.
      const deflated = await raw(url, { 'accept-encoding': 'gzip;q=0, deflate' });
      expect(deflated.headers['content-encoding']).toBe('deflate');
      expect(inflateSync(deflated.body).equals(plain.body)).toBe(true);
    }
  });
});
