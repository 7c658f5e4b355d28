import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { request as httpRequest } from 'node:http';
import { Hono } from 'hono';
import { handle } from 'hono/aws-lambda';
import { newOrg, newUser, useTestApi } from './support/api.ts';
import { serveLocal } from '../shared/local/http-server.ts';
import { createLocalApp } from '../shared/local/server.ts';
import { getRecord } from '../shared/db/operations.ts';
import { rateLimitCounterEntity } from '../shared/db/entities/rate-limit.ts';
import { advanceClock, nowEpochSeconds, resetClock, stepWallClock } from '../shared/clock.ts';
import { sha256Hex } from '../shared/ids.ts';
import { addressSubject, clientAddress } from '../shared/http/rate-limit-client-address.ts';

const api = useTestApi();
/** A second server on the same table: another "Lambda instance". */
let other: { url: string; close(): Promise<void> };
beforeAll(async () => {
  const { server, address } = await serveLocal({ fetch: createLocalApp().fetch, port: 0, hostname: '127.0.0.1' });
  other = { url: `http://127.0.0.1:${address.port}`, close: () => new Promise((r) => server.close(() => r())) };
});
afterAll(async () => {
  resetClock();
  await other.close();
});

// Each test starts one second into a fresh window, so its requests never straddle two.
let windowEnd: number;
beforeEach(() => {
  const now = nowEpochSeconds();
  advanceClock((60 - (now % 60) + 1) * 1000);
  windowEnd = nowEpochSeconds() - 1 + 60;
});

interface Answer { status: number; headers: Record<string, string | string[] | undefined>; body: any }

/**
 * One request from a chosen loopback address (127.x.y.z all reach 127.0.0.1 on Linux), so
 * per-address counts are this test's own while other files run against the same table.
 */
function from(address: string, base: string, method: string, path: string, token?: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${base}${path}`, { method, localAddress: address, headers: token ? { authorization: `Bearer ${token}` } : {} }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => (text += chunk));
      res.on('end', () => {
        let body: unknown = text;
        try {
          body = JSON.parse(text);
        } catch {
          // not JSON
        }
        resolve({ status: res.statusCode!, headers: res.headers, body });
      });
    });
    req.on('error', reject);
    req.end();
  });
}

const randomLoopback = () => `127.${1 + Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}.${1 + Math.floor(Math.random() * 250)}`;

describe('per access token (RATE_LIMIT_PER_MINUTE)', () => {
  it('counts every request of a token across instances, answers 429 with Retry-After past the limit, and starts again next minute', async () => {
    process.env.RATE_LIMIT_PER_MINUTE = '5';
    const org = await newOrg();
    const { token } = org.admin;
    const address = randomLoopback();
    for (let i = 0; i < 5; i++) {
      const res = await from(address, i % 2 ? other.url : api.url, 'GET', '/v1/user', token);
      expect(res.status).toBe(200);
      expect(res.headers['x-ratelimit-limit']).toBe('5');
      expect(res.headers['x-ratelimit-remaining']).toBe(String(4 - i));
      expect(res.headers['x-ratelimit-reset']).toBe(String(windowEnd));
      expect(res.headers['retry-after']).toBeUndefined();
    }
    const refused = await from(address, other.url, 'GET', '/v1/user', token);
    expect(refused.status).toBe(429);
    expect(refused.body.error.code).toBe(429);
    expect(refused.body.error.message).toMatch(/^Too many requests: an access token is limited to 5 requests per minute; retry in \d+ s$/);
    expect(refused.headers['x-ratelimit-remaining']).toBe('0');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(60);
    // Writes are refused too, and change nothing.
    const write = await api.request('POST', `/orgs/${org.id}/spaces`, { token, body: { title: 'Never created' } });
    expect(write.status).toBe(429);

    // The counter is one item per token and window, removed by TTL after the window.
    const counter = await getRecord(rateLimitCounterEntity.key({ scope: 'token', subject: sha256Hex(token), windowStart: windowEnd - 60 }), true);
    expect(counter).toMatchObject({ count: 7, expiresAt: windowEnd, entityType: 'rate-limit-counter' });

    // Another token from the same address is not affected.
    const second = await newUser();
    expect((await from(address, api.url, 'GET', '/v1/user', second.token)).status).toBe(200);

    advanceClock(60_000);
    const next = await from(address, api.url, 'GET', '/v1/user', token);
    expect(next.status).toBe(200);
    expect(next.headers['x-ratelimit-remaining']).toBe('4');
    expect((await api.request('GET', `/orgs/${org.id}/spaces`, { token })).body.items).toEqual([]);
  });

  it('holds under concurrency: of 20 simultaneous requests with a limit of 8, exactly 8 pass', async () => {
    process.env.RATE_LIMIT_PER_MINUTE = '8';
    const { token } = await newUser();
    const statuses = await Promise.all(Array.from({ length: 20 }, (_, i) => from(randomLoopback(), i % 2 ? other.url : api.url, 'GET', '/v1/user', token).then((r) => r.status)));
    expect(statuses.filter((s) => s === 200)).toHaveLength(8);
    expect(statuses.filter((s) => s === 429)).toHaveLength(12);
  });
});

describe('per client address without a valid token (READER_RATE_LIMIT_PER_MINUTE)', () => {
  it('refuses token guessing from an address with 429, even for a right guess, while other addresses go on', async () => {
    process.env.READER_RATE_LIMIT_PER_MINUTE = '3';
    process.env.RATE_LIMIT_PER_MINUTE = '1000';
    const { token } = await newUser();
    const guesser = randomLoopback();
    const missing = await from(guesser, api.url, 'GET', '/v1/user');
    expect(missing.status).toBe(401);
    expect(missing.headers['x-ratelimit-limit']).toBe('3');
    expect(missing.headers['x-ratelimit-remaining']).toBe('2');
    for (const remaining of ['1', '0']) {
      const wrong = await from(guesser, other.url, 'GET', '/v1/user', `dps_guess${Math.random().toString(36).slice(2)}`);
      expect(wrong.status).toBe(401);
      expect(wrong.headers['x-ratelimit-remaining']).toBe(remaining);
    }
    const fourth = await from(guesser, api.url, 'GET', '/v1/user', 'dps_guessagain');
    expect(fourth.status).toBe(429);
    expect(fourth.body.error.message).toMatch(/^Too many requests: an address sending requests without a valid access token is limited to 3 requests per minute/);
    expect(Number(fourth.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    // A right guess from the blocked address looks the same as a wrong one.
    const right = await from(guesser, api.url, 'GET', '/v1/user', token);
    expect(right.status).toBe(429);
    expect(right.body.error.message).toBe(fourth.body.error.message.replace(/retry in \d+ s/, right.body.error.message.match(/retry in \d+ s/)[0]));
    // The same token from another address works.
    expect((await from(randomLoopback(), api.url, 'GET', '/v1/user', token)).status).toBe(200);
    // Next minute the address may try again.
    advanceClock(60_000);
    expect((await from(guesser, api.url, 'GET', '/v1/user', token)).status).toBe(200);
  });
});

describe('reader (READER_RATE_LIMIT_PER_MINUTE per address)', () => {
  it('counts every reader request of an address, share-key and page guesses alike, and answers 429 past the limit', async () => {
    process.env.READER_RATE_LIMIT_PER_MINUTE = '3';
    const reader = randomLoopback();
    for (let i = 0; i < 3; i++) {
      const res = await from(reader, api.url, 'GET', `/s/site_nothere/page?share=guess${i}`);
      expect(res.status).toBe(404);
      expect(res.headers['x-ratelimit-remaining']).toBe(String(2 - i));
    }
    const refused = await from(reader, other.url, 'GET', '/s/site_nothere/page?share=guess4');
    expect(refused.status).toBe(429);
    expect(refused.headers['content-type']).toMatch(/^application\/json/);
    expect(refused.headers['cache-control']).toBe('no-store');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(refused.body.error).toMatchObject({ code: 429, message: expect.stringMatching(/^Too many requests: reading published sites from one address is limited to 3 requests per minute/) });
    expect((await from(randomLoopback(), api.url, 'GET', '/s/site_nothere/page')).status).toBe(404);
  });

  it('writes an address\'s count in steps (shared/http/stepped-request-counter.ts): a page load\'s requests write once, the answers stay exact, the shared count catches up within a second', async () => {
    process.env.READER_RATE_LIMIT_PER_MINUTE = '1000'; // a write every 50 requests, or every second
    const reader = randomLoopback();
    const key = rateLimitCounterEntity.key({ scope: 'reader', subject: reader, windowStart: windowEnd - 60 });
    // A page and its files at once, as a browser asks for them.
    const burst = await Promise.all(Array.from({ length: 10 }, () => from(reader, api.url, 'GET', '/s/site_nothere/page')));
    expect(burst.map((r) => r.status)).toEqual(Array(10).fill(404));
    expect(burst.map((r) => Number(r.headers['x-ratelimit-remaining'])).sort((x, y) => y - x)).toEqual(Array.from({ length: 10 }, (_, i) => 999 - i));
    // Fewer writes than requests: the shared count lags behind (one write per request would make it 10).
    const lagging = Number((await getRecord(key, true))?.count);
    expect(lagging).toBeGreaterThanOrEqual(1);
    expect(lagging).toBeLessThan(10);
    // A second later the next request writes everything counted so far.
    advanceClock(1500);
    const next = await from(reader, api.url, 'GET', '/s/site_nothere/page');
    expect(next.headers['x-ratelimit-remaining']).toBe('989');
    expect(await getRecord(key, true)).toMatchObject({ count: 11 });
  });

  it('writes the count that is due a second later even when the time of day stepped back within the minute meanwhile', async () => {
    process.env.READER_RATE_LIMIT_PER_MINUTE = '1000';
    const reader = randomLoopback();
    const key = rateLimitCounterEntity.key({ scope: 'reader', subject: reader, windowStart: windowEnd - 60 });
    // Thirty seconds into the window, so that a step of ten seconds back stays in it.
    advanceClock(30_000);
    const burst = await Promise.all(Array.from({ length: 10 }, () => from(reader, api.url, 'GET', '/s/site_nothere/page')));
    expect(burst.map((r) => r.status)).toEqual(Array(10).fill(404));
    expect(Number((await getRecord(key, true))?.count)).toBeLessThan(10);
    // An NTP correction sets the time of day back ten seconds; then a second and a half passes.
    stepWallClock(-10_000);
    try {
      advanceClock(1500);
      const next = await from(reader, api.url, 'GET', '/s/site_nothere/page');
      expect(next.headers['x-ratelimit-remaining']).toBe('989');
      // By the time of day alone, the last write would be 8.5 s in the future and nothing due.
      expect(await getRecord(key, true)).toMatchObject({ count: 11 });
    } finally {
      stepWallClock(10_000);
    }
  });
});

describe('SAML service provider endpoints (per address)', () => {
  it('count posted responses and metadata reads per address, separately from the reader', async () => {
    process.env.READER_RATE_LIMIT_PER_MINUTE = '2';
    const client = randomLoopback();
    for (let i = 0; i < 2; i++) {
      const res = await from(client, api.url, 'GET', '/sso/saml/nosuchprovider');
      expect(res.status).toBe(404);
      expect(res.headers['x-ratelimit-remaining']).toBe(String(1 - i));
    }
    const refused = await from(client, api.url, 'GET', '/sso/saml/nosuchprovider/start');
    expect(refused.status).toBe(429);
    expect(refused.body.error.message).toMatch(/^Too many requests: signing in with SAML from one address is limited to 2 requests per minute/);
    // The reader's counter of the same address is another one.
    expect((await from(client, api.url, 'GET', '/s/site_nothere/page')).status).toBe(404);
  });
});

describe('client address', () => {
  it('is API Gateway\'s sourceIp in Lambda, never X-Forwarded-For; IPv4-mapped as IPv4, IPv6 by /64', async () => {
    const app = new Hono().get('/ip', (c) => c.text(clientAddress(c)));
    const handler = handle(app);
    const event = {
      version: '2.0', routeKey: 'GET /ip', rawPath: '/ip', rawQueryString: '', isBase64Encoded: false,
      headers: { host: 'api.example.com', 'x-forwarded-for': '6.6.6.6' },
      requestContext: { http: { method: 'GET', path: '/ip', protocol: 'HTTP/1.1', sourceIp: '203.0.113.9', userAgent: 'test' }, domainName: 'api.example.com', requestId: 'r', routeKey: 'GET /ip', stage: '$default', timeEpoch: 0 },
    };
    const res = await handler(event as never, {} as never) as { body: string };
    expect(res.body).toBe('203.0.113.9');
    expect(addressSubject('::ffff:198.51.100.7')).toBe('198.51.100.7');
    expect(addressSubject('2001:db8:1:2:aaaa::1')).toBe(addressSubject('2001:db8:1:2:ffff:1:2:3'));
    expect(addressSubject('2001:db8:1:2:aaaa::1')).toBe('2001:db8:1:2::/64');
    expect(addressSubject('2001:db8:1:3::1')).not.toBe('2001:db8:1:2::/64');
    expect(addressSubject(undefined)).toBe('unknown');
    expect(addressSubject('not an address')).toBe('unknown');
  });
});
