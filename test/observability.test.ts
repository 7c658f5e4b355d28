import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { SQSEvent } from 'aws-lambda';
import { newOrg, useTestApi, type TestApi, type TestOrg } from './support/api.ts';
import { logger } from '../shared/observability/logger.ts';
import { handler as jobsWorker } from '../functions/workers/jobs/handler.ts';
import { createRepo, useGitServer } from './support/git-server.ts';
import { settleGit } from './support/git-sync.ts';
import { fastMdast } from '../shared/content/markdown/fast-mdast.ts';

/** Every JSON line the process writes while `fn` runs (the logger writes to stdout and stderr). */
async function captureLines(fn: () => Promise<unknown>): Promise<Record<string, any>[]> {
  const chunks: string[] = [];
  const streams = [process.stdout, process.stderr];
  const originals = streams.map((s) => s.write);
  for (const stream of streams) {
    stream.write = ((chunk: unknown) => {
      chunks.push(String(chunk));
      return true;
    }) as typeof stream.write;
  }
  try {
    await fn();
  } finally {
    streams.forEach((stream, i) => (stream.write = originals[i]!));
  }
  return chunks.join('').split('\n').filter((line) => line.startsWith('{')).map((line) => JSON.parse(line));
}

const api = useTestApi();
let org: TestOrg;

beforeAll(async () => {
  org = await newOrg('Observed');
  // The test run logs errors only (test/support/global-setup.ts); this file reads the access lines.
  logger.setLogLevel('INFO');
});
afterAll(async () => {
  logger.setLogLevel('ERROR');
});
afterEach(() => {
  process.env.DEBUG_ROUND_TRIPS = '1';
});

describe('request logs', () => {
  it('echo a sane x-request-id and write one access line per request under it, with the organization', async () => {
    let res: Awaited<ReturnType<TestApi['request']>> | undefined;
    const lines = await captureLines(async () => {
      res = await api.request('GET', `/orgs/${org.id}`, { token: org.admin.token, headers: { 'x-request-id': 'deploy-check.42' } });
    });
    expect(res!.status).toBe(200);
    expect(res!.headers.get('x-request-id')).toBe('deploy-check.42');
    const access = lines.filter((l) => l.message === 'request' && l.correlation_id === 'deploy-check.42');
    expect(access).toHaveLength(1);
    expect(access[0]).toMatchObject({
      level: 'INFO',
      service: 'docs-service',
      method: 'GET',
      path: `/v1/orgs/${org.id}`,
      route: 'getOrganizationById',
      group: 'organizations',
      status: 200,
      organizationId: org.id,
      dbRoundTrips: expect.any(Number),
      durationMs: expect.any(Number),
    });
    // The API Gateway request id (a fresh one locally) is its own field, distinct from the caller's id.
    expect(access[0]!.request_id).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('replace an x-request-id that is too long or not plain with the request id', async () => {
    for (const sent of ['x'.repeat(200), 'a b', '<script>']) {
      let res: Awaited<ReturnType<TestApi['request']>> | undefined;
      const lines = await captureLines(async () => {
        res = await api.request('GET', `/orgs/${org.id}`, { token: org.admin.token, headers: { 'x-request-id': sent } });
      });
      const echoed = res!.headers.get('x-request-id')!;
      expect(echoed, sent).toMatch(/^[0-9a-f-]{36}$/);
      expect(JSON.stringify(lines)).not.toContain(sent);
      expect(lines.find((l) => l.message === 'request' && l.correlation_id === echoed)?.request_id).toBe(echoed);
    }
  });

  it('never contain the bearer token, the Authorization header, the query string or the body', async () => {
    const lines = await captureLines(async () => {
      await api.request('PATCH', `/orgs/${org.id}`, { token: org.admin.token, body: { title: 'Secret title 7f3a' }, query: { token: 'share-secret-9c1d' } });
      await api.request('GET', `/orgs/${org.id}`, { token: 'dps_not-a-real-token-1234567890' });
    });
    expect(lines.filter((l) => l.message === 'request')).toHaveLength(2);
    const text = JSON.stringify(lines);
    for (const secret of [org.admin.token, 'dps_not-a-real-token', 'Bearer', 'share-secret-9c1d', 'Secret title 7f3a']) expect(text).not.toContain(secret);
    expect(text.toLowerCase()).not.toContain('authorization');
  });

  it('redact attributes named like credentials, whoever passes them', async () => {
    const lines = await captureLines(async () => {
      logger.info('probe', { headers: { authorization: 'Bearer abc' }, accessToken: 'tok-1', nested: [{ password: 'pw' }], keep: 'visible' });
    });
    expect(lines.at(-1)).toMatchObject({ message: 'probe', headers: { authorization: '[redacted]' }, accessToken: '[redacted]', nested: [{ password: '[redacted]' }], keep: 'visible' });
  });

  it('log a failed job under its message id with the queue, as an error line', async () => {
    const event = { Records: [{ messageId: 'msg-obs-1', body: '{"kind":"nope"}', attributes: { SentTimestamp: String(Date.now() - 1500), ApproximateReceiveCount: '2' } }] } as unknown as SQSEvent;
    let result: Awaited<ReturnType<typeof jobsWorker>> | undefined;
    const lines = await captureLines(async () => {
      result = await jobsWorker(event);
    });
    expect(result).toEqual({ batchItemFailures: [{ itemIdentifier: 'msg-obs-1' }] });
    expect(lines.find((l) => l.message === 'job failed')).toMatchObject({
      level: 'ERROR', queue: 'jobs', correlation_id: 'msg-obs-1', request_id: 'msg-obs-1', receiveCount: 2,
    });
  });
});

describe('GET /v1/health', () => {
  it('answers without a token, with a request id', async () => {
    const res = await fetch(`${api.url}/v1/health`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: 'ok' });
    expect(res.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    expect(res.headers.get('cache-control')).toBe('no-store');
  });
});

describe('x-db-round-trips', () => {
  it('is sent only when DEBUG_ROUND_TRIPS=1', async () => {
    process.env.DEBUG_ROUND_TRIPS = '0';
    const off = await api.request('GET', `/orgs/${org.id}`, { token: org.admin.token });
    expect(off.status).toBe(200);
    expect(off.headers.has('x-db-round-trips')).toBe(false);
    delete process.env.DEBUG_ROUND_TRIPS;
    expect((await api.request('GET', `/orgs/${org.id}`, { token: org.admin.token })).headers.has('x-db-round-trips')).toBe(false);
    process.env.DEBUG_ROUND_TRIPS = '1';
    const on = await api.request('GET', `/orgs/${org.id}`, { token: org.admin.token });
    expect(Number(on.headers.get('x-db-round-trips'))).toBeGreaterThan(0);
  });
});

describe('git import log', () => {
  const server = useGitServer();

  it('one `git import` line per import: what it read, and how many pages markdown-it read rather than micromark', async () => {
    const plain = '# Welcome\n\nStart with the [guide](guide.md).\n';
    // A bare URL in text: micromark's (literal autolinks are not the fast path's).
    const withUrl = '# Guide\n\nSee https://example.com for more.\n';
    expect(fastMdast(plain, false)).toBeDefined();
    expect(fastMdast(withUrl, false)).toBeUndefined();
    await createRepo(server, 'logged-import', { 'README.md': plain, 'guide.md': withUrl, 'notes.md': '# Notes\n\nPlain again.\n' });
    const space = await api.request('POST', `/orgs/${org.id}/spaces`, { token: org.admin.token, body: { title: 'Logged import' } });
    const started = await api.request('POST', `/spaces/${space.body.id}/git/import`, { token: org.admin.token, body: { url: `${server.url}/logged-import.git`, ref: 'refs/heads/main' } });
    expect(started.status).toBe(204);
    let info: Awaited<ReturnType<typeof settleGit>> | undefined;
    const lines = await captureLines(async () => {
      info = await settleGit(api, org.admin.token, space.body.id);
    });
    expect(info!.operations.last.status).toBe('succeeded');
    const logged = lines.filter((line) => line.message === 'git import');
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatchObject({ level: 'INFO', pages: 3, files: 0, reusableContents: 0, markdownFastPath: 2, warnings: 0, spaceId: space.body.id });
    const content = await api.request('GET', `/spaces/${space.body.id}/content`, { token: org.admin.token });
    expect(content.body.pages.map((page: { title: string }) => page.title)).toEqual(['Welcome', 'Guide', 'Notes']);
  });
});
