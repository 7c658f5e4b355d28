import { readdirSync } from 'node:fs';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operations, type Operation } from '../functions/catalogue.ts';
import { useTestApi, type TestResponse } from './support/api.ts';
import { fillPath, hostileFixture, pathParamNames, snapshot, type HostileFixture } from './support/hostile/fixtures.ts';
import { hostileJsonValue, hostilePathValue, hostileQuery, refusedBody } from './support/hostile/generators.ts';
import { unboundedPaths } from './support/hostile/schema-bounds.ts';

/**
 * Hostile input against every operation of the route table (functions/catalogue.ts),
 * over real HTTP against the real emulators, as an organization admin so requests get
 * past authorization to validation. Properties:
 * - refused input (a path value outside its parameter's rule, a structurally bad body, a
 *   non-JSON media type) is a 4xx in the JSON error shape and writes nothing;
 * - random hostile bodies and queries never get a 5xx, and every 4xx has the error shape.
 * A fixed seed keeps runs repeatable; FC_SEED=<n> replays another.
 */
const seed = Number(process.env.FC_SEED ?? 20_240_808);
const writes = operations.filter((op) => op.method !== 'GET' && op.method !== 'DELETE');
const reads = operations.filter((op) => op.method === 'GET');

// The suite sends thousands of requests with one token in a minute: rate limits are not what it tests.
process.env.RATE_LIMIT_PER_MINUTE = '1000000';
process.env.READER_RATE_LIMIT_PER_MINUTE = '1000000';
const api = useTestApi();
let refusing: HostileFixture;
let playground: HostileFixture;

beforeAll(async () => {
  console.log(`hostile-input: fast-check seed ${seed} (FC_SEED=${seed} replays it)`);
  [refusing, playground] = await Promise.all([hostileFixture(api, 'Hostile refused'), hostileFixture(api, 'Hostile playground')]);
}, 120_000);

function send(op: Operation, path: string, fixture: HostileFixture, options: { text?: string; contentType?: string; query?: Record<string, string> } = {}) {
  const headers: Record<string, string> = {};
  if (options.contentType) headers['content-type'] = options.contentType;
  return api.request(op.method, path, {
    token: fixture.org.admin.token, headers, query: options.query,
    ...(options.text !== undefined ? { rawBody: options.text } : {}),
  });
}

/** No 5xx; a 4xx carries {"error":{"code":<status>,"message":<string>}}. */
function expectSafe(res: TestResponse, what: string): void {
  expect(res.status, `${what} -> ${JSON.stringify(res.body)?.slice(0, 300)}`).toBeLessThan(500);
  if (res.status >= 400) {
    expect(res.body?.error?.code, what).toBe(res.status);
    expect(typeof res.body?.error?.message, what).toBe('string');
  }
}

const opArb = (ops: readonly Operation[]) => fc.constantFrom(...ops);
const runs = (ops: readonly Operation[], perOp: number) => ({ seed, numRuns: ops.length * perOp, endOnFailure: true });

describe('refused input writes nothing', () => {
  let before: string;
  beforeAll(async () => {
    before = await snapshot(refusing);
  });
  afterAll(async () => {
    // Checked once more after every property of this block has run.
    expect(await snapshot(refusing)).toBe(before);
  });

  const withParams = operations.filter((op) => pathParamNames(op).length > 0);
  it('path parameters outside their rule: 400 naming the parameter, for every operation and method', async () => {
    await fc.assert(fc.asyncProperty(opArb(withParams), fc.nat(), hostilePathValue, async (op, pick, raw) => {
      const names = pathParamNames(op);
      const name = names[pick % names.length]!;
      const path = fillPath(op, refusing.params, { name, raw });
      const res = await send(op, path, refusing, op.method === 'GET' || op.method === 'DELETE' ? {} : { text: '{}', contentType: 'application/json' });
      const what = `${op.method} ${path.slice(0, 200)}`;
      expectSafe(res, what);
      expect(res.status, what).toBe(400);
      expect(res.body.error.message, what).toMatch(new RegExp(`^${name}: `));
    }), runs(withParams, 3));
    expect(await snapshot(refusing)).toBe(before);
  }, 120_000);

  it('structurally bad bodies and non-JSON media types: 400, 413 or 415 on every write operation', async () => {
    await fc.assert(fc.asyncProperty(opArb(writes), refusedBody, async (op, body) => {
      const res = await send(op, fillPath(op, refusing.params), refusing, { text: body.text, contentType: body.contentType });
      const what = `${op.method} ${op.path} with ${body.what}`;
      expectSafe(res, what);
      expect([400, 413, 415], `${what}: ${res.status} ${JSON.stringify(res.body)}`).toContain(res.status);
    }), runs(writes, 3));
    expect(await snapshot(refusing)).toBe(before);
  }, 120_000);

  it('junk limits and forged cursors on every read: never a 5xx, nothing written', async () => {
    await fc.assert(fc.asyncProperty(opArb(reads), hostileQuery, async (op, query) => {
      const res = await send(op, fillPath(op, refusing.params), refusing, { query });
      expectSafe(res, `GET ${op.path}?${new URLSearchParams(query).toString().slice(0, 200)}`);
    }), runs(reads, 2));
    expect(await snapshot(refusing)).toBe(before);
  }, 120_000);

  it('bodies over 6 MB are refused with 413 before they are read whole', async () => {
    const op = writes.find((o) => o.operationId === 'createSpace') ?? writes[0]!;
    const res = await send(op, fillPath(op, refusing.params), refusing, { text: JSON.stringify({ title: 'x'.repeat(6 * 1024 * 1024) }), contentType: 'application/json' });
    expect(res.status).toBe(413);
    expect(res.body.error.code).toBe(413);
  });
});

describe('random hostile bodies and queries', () => {
  it('never answer 5xx on any write operation, and every 4xx has the JSON error shape', async () => {
    const body = fc.dictionary(
      fc.oneof(fc.string({ maxLength: 12 }), fc.constantFrom('title', 'id', 'name', 'url', 'source', 'markdown', 'document', 'description', 'instructions', 'jsonSchema', 'constructor', 'prototype')),
      hostileJsonValue, { minKeys: 1, maxKeys: 5 },
    );
    await fc.assert(fc.asyncProperty(opArb(writes), body, async (op, value) => {
      const text = JSON.stringify(value);
      const res = await send(op, fillPath(op, playground.params), playground, { text, contentType: 'application/json' });
      expectSafe(res, `${op.method} ${op.path} with ${text.slice(0, 200)}`);
    }), runs(writes, 3));
    // Nothing reached an object's prototype in this process (the server runs in it).
    expect(({} as Record<string, unknown>).admin).toBeUndefined();
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  }, 180_000);

  it('never answer 5xx on any read with hostile query values', async () => {
    const query = fc.dictionary(
      fc.constantFrom('limit', 'page', 'query', 'format', 'order', 'sort', 'status', 'role', 'search', 'title', 'metadata', 'computed', 'q', 'space', 'shareKey'),
      fc.oneof(fc.string({ unit: 'binary', maxLength: 40 }), fc.constantFrom('', '%zz', '\u0000', '1001', '-1', 'true', 'a'.repeat(3000))),
      { maxKeys: 4 },
    );
    await fc.assert(fc.asyncProperty(opArb(reads), query, async (op, q) => {
      const res = await send(op, fillPath(op, playground.params), playground, { query: q });
      expectSafe(res, `GET ${op.path}?${new URLSearchParams(q).toString().slice(0, 200)}`);
    }), runs(reads, 2));
  }, 120_000);
});

it('unknown API paths and published-site paths with hostile segments never answer 5xx', async () => {
  await fc.assert(fc.asyncProperty(hostilePathValue, fc.constantFrom('api', 'site', 'site-md'), async (raw, where) => {
    const path = where === 'api' ? `/v1/spaces/${refusing.params.spaceId}/${raw}/nothing`
      : `/s/${refusing.params.siteId}/${raw}${where === 'site-md' ? '.md' : ''}`;
    const res = await fetch(`${api.url}${path}`, { headers: { authorization: `Bearer ${refusing.org.admin.token}` } });
    expect(res.status, `GET ${path.slice(0, 200)}`).toBeLessThan(500);
  }), { seed, numRuns: 60 });
});

describe('every body schema bounds every string, array and free-form value', () => {
  /**
   * The content edit body (shared/content/change-schema.ts) is bounded by its owner's own
   * checks (markdown and document limits in shared/content/limits.ts) that this walk cannot
   * read; it is exercised by the content tests and the properties above.
   */
  const ownedElsewhere = new Set(['contentChangesBody']);
  const notGroups = new Set(['workers', 'reader', 'integration-runtime']);
  const files = [
    // Every group folder (functions/catalogue.ts is a file beside them). Not groups: workers/
    // (queue consumers), reader/ (published sites, no declared operations) and
    // integration-runtime/ (a Lambda serving the integrations group's public endpoint,
    // whose schemas are functions/integrations/schemas.ts).
    ...readdirSync('functions', { withFileTypes: true }).filter((d) => d.isDirectory() && !notGroups.has(d.name))
      .map((d) => `../functions/${d.name}/schemas.ts`),
    '../shared/http/schemas.ts',
  ];
  it.each(files)('%s', async (file) => {
    const mod = await import(file) as Record<string, unknown>;
    const unbounded: string[] = [];
    for (const [name, schema] of Object.entries(mod)) {
      if (!/Body$/.test(name) || ownedElsewhere.has(name) || typeof schema !== 'object' || schema === null || !('kind' in schema)) continue;
      for (const path of unboundedPaths(schema as never)) unbounded.push(`${name} ${path}`);
    }
    expect(unbounded).toEqual([]);
  });
});
