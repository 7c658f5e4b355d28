/**
 * The egress matrix: every feature that fetches a URL someone gave it (OpenAPI source,
 * file upload by URL, Git import, integration dev tunnel) refuses every spelling of
 * loopback, private and metadata addresses, names resolving to them, redirects to them
 * and other schemes, with the guard's message, and the counting target sees no request.
 * Only the fixture server's own port is allow-listed here.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { newOrg, useTestApi, type TestOrg } from './support/api.ts';
import { createChangeRequest, createSpace } from './support/factories.ts';
import { egressMatrix, LEAK, startEgressFixtures, type EgressFixtures, type MatrixCase } from './support/egress-fixtures.ts';
import { pollOnce } from '../shared/local/queue-poller.ts';
import { fileUrlLimits } from '../shared/content/file-input.ts';
import { randomId } from '../shared/ids.ts';
import { storedInPartition } from './support/stored.ts';
import { organizationEntity } from '../shared/db/entities/organization.ts';
import { processedSpec } from './support/openapi-specs.ts';

const api = useTestApi();
let f: EgressFixtures;
let org: TestOrg;

beforeAll(async () => {
  f = await startEgressFixtures();
  org = await newOrg();
});
beforeEach(() => {
  // The suite-wide allow-list (test/support/global-setup.ts) admits all of 127.0.0.1: here only the fixture's port.
  process.env.EGRESS_ALLOWLIST = `127.0.0.1:${f.fixturePort}`;
});
afterAll(async () => {
  await f.close();
});

/** Runs `attempt` for every case: the refusal matches, and the target is never reached. */
async function expectAllRefused(attempt: (c: MatrixCase) => Promise<string>, reasonOf = (c: MatrixCase) => c.reason) {
  for (const c of egressMatrix(f)) {
    const message = await attempt(c);
    expect.soft(message, c.name).toMatch(reasonOf(c));
    expect.soft(message, c.name).not.toContain('secret internal answer');
  }
  expect(f.hits()).toBe(0);
}

describe('OpenAPI source URL', () => {
  const base = () => `/orgs/${org.id}/openapi`;
  const processed = (slug: string) => processedSpec(org.id, slug);

  it('refuses every matrix URL: literal addresses at once (400), the rest when fetched (FETCH_ERROR)', async () => {
    await expectAllRefused(async (c) => {
      const slug = `s-${randomId(8).toLowerCase()}`;
      const res = await api.request('POST', base(), { token: org.admin.token, body: { slug, source: { url: c.url } } });
      if (!c.redirect && !c.resolved) {
        expect.soft(res.status, c.name).toBe(400);
        return res.body.error.message;
      }
      expect(res.status, c.name).toBe(201);
      const spec = await processed(slug);
      expect.soft(spec.lastProcessErrorCode, c.name).toBe('FETCH_ERROR');
      expect.soft(spec.lastProcessedErrors![0]!.message, c.name).toMatch(/^source\.url: /);
      return spec.lastProcessedErrors![0]!.message;
    });
  }, 120_000);

  it('keeps credentials sealed: used for the fetch, never stored in the URL nor returned', async () => {
    const url = `http://bot:hunter2@127.0.0.1:${f.fixturePort}/private-spec.json`;
    const res = await api.request('POST', base(), { token: org.admin.token, body: { slug: 'private', source: { url } } });
    expect(res.status).toBe(201);
    expect(res.body.sourceURL).toBe(`http://127.0.0.1:${f.fixturePort}/private-spec.json`);
    const spec = await processed('private');
    expect(spec.lastProcessErrorCode).toBeUndefined();
    expect(spec.lastVersion).toEqual(expect.any(String));
    const read = await api.request('GET', `${base()}/private`, { token: org.admin.token });
    expect(JSON.stringify(read.body)).not.toContain('hunter2');
    expect(JSON.stringify(await storedInPartition(organizationEntity.key({ orgId: org.id })))).not.toContain('hunter2');
    // Replaced by a URL without credentials: the sealed ones are gone, the fetch is refused (401).
    const put = await api.request('PUT', `${base()}/private`, { token: org.admin.token, body: { source: { url: url.replace('bot:hunter2@', '') } } });
    expect(put.status).toBe(200);
    const again = await processed('private');
    expect(again.sourceCredentials).toBeUndefined();
    expect(again.lastProcessedErrors![0]!.message).toBe('source.url: fetching the spec answered HTTP 401');
  });

  it('never quotes the fetched body in lastProcessedErrors', async () => {
    for (const path of ['/leaky', '/leaky-json', '/leaky-yaml']) {
      const slug = `leak-${randomId(6).toLowerCase()}`;
      expect((await api.request('POST', base(), { token: org.admin.token, body: { slug, source: { url: `${f.fixtureUrl}${path}` } } })).status).toBe(201);
      const spec = await processed(slug);
      expect(spec.lastProcessErrorCode, path).toEqual(path === '/leaky' ? 'FETCH_ERROR' : 'PARSE_ERROR');
      expect(JSON.stringify(spec.lastProcessedErrors), path).not.toContain(LEAK);
      const read = await api.request('GET', `${base()}/${slug}`, { token: org.admin.token });
      expect(JSON.stringify(read.body), path).not.toContain(LEAK);
    }
  });
});

describe('file upload by URL', () => {
  async function changeRequest() {
    const space = await createSpace(api, org, { title: 'Files' });
    const cr = await createChangeRequest(api, org, space, { subject: 'Files' });
    return `/spaces/${space.id}/change-requests/${cr.id}/content`;
  }
  const upload = (path: string, url: string) => api.request('POST', path, {
    token: org.admin.token, body: { changes: [{ operation: 'insert_files', files: [{ name: 'logo.png', url }] }] },
  });

  it('stores an allowed URL (control)', async () => {
    const res = await upload(await changeRequest(), `${f.fixtureUrl}/logo.png`);
    expect(res.status, JSON.stringify(res.body)).toBeLessThan(300);
  });

  it('answers 400 naming the field for every matrix URL, before fetching anything', async () => {
    const path = await changeRequest();
    await expectAllRefused(async (c) => {
      const res = await upload(path, c.url);
      expect.soft(res.status, c.name).toBe(400);
      expect.soft(res.body.error.message, c.name).toMatch(/files\.0\.url: /);
      return res.body.error.message;
    });
  }, 60_000);

  it('cuts a 100 MB stream at the cap with bounded memory', async () => {
    const limits = { ...fileUrlLimits };
    fileUrlLimits.maxBytes = 2 * 1024 * 1024;
    try {
      const rss = process.memoryUsage().rss;
      const res = await upload(await changeRequest(), `${f.fixtureUrl}/big`);
      expect(res.status).toBe(400);
      expect(res.body.error.message).toMatch(/files\.0\.url: the response is larger than 2097152 bytes$/);
      expect(f.bigBytesSent()).toBeLessThan(24 * 1024 * 1024);
      expect(process.memoryUsage().rss - rss).toBeLessThan(48 * 1024 * 1024);
      const declared = await upload(await changeRequest(), `${f.fixtureUrl}/big-declared`);
      expect(declared.body.error.message).toMatch(/larger than 2097152 bytes/);
      Object.assign(fileUrlLimits, { timeoutMs: 500 });
      const started = Date.now();
      const slow = await upload(await changeRequest(), `${f.fixtureUrl}/slow`);
      expect(slow.status).toBe(400);
      expect(slow.body.error.message).toMatch(/files\.0\.url: no complete answer within 500 ms/);
      expect(Date.now() - started).toBeLessThan(3000);
    } finally {
      Object.assign(fileUrlLimits, limits);
    }
  });
});

describe('Git import remote', () => {
  async function importFrom(url: string): Promise<string> {
    const space = await createSpace(api, org, { title: 'Git' });
    const res = await api.request('POST', `/spaces/${space.id}/git/import`, { token: org.admin.token, body: { url, ref: 'refs/heads/main' } });
    if (res.status === 400) return res.body.error.message;
    expect(res.status).toBe(204);
    for (let i = 0; i < 60; i++) {
      await pollOnce('git', 1);
      const info = await api.request('GET', `/spaces/${space.id}/git/info`, { token: org.admin.token });
      if (info.body.operations.running === null && info.body.operations.last) {
        expect(info.body.operations.last.status).toBe('failed');
        return info.body.operations.last.message;
      }
    }
    throw new Error('the import did not settle');
  }

  it('refuses every matrix URL when the worker connects', async () => {
    await expectAllRefused((c) => importFrom(c.url));
  }, 240_000);
});

describe('integration dev tunnel dispatch', () => {
  const name = `egress-${randomId(8).toLowerCase()}`;
  beforeAll(async () => {
    const res = await api.request('POST', `/integrations/${name}`, {
      token: org.admin.token, body: { title: 'Egress', description: 'Tunnel', organization: org.id, visibility: 'public' },
    });
    expect(res.status).toBeLessThan(300);
  });

  /** Points the tunnel at `url`, installs in a new organization, dispatches, and returns the event's last log line. */
  async function dispatchTo(url: string): Promise<{ status: string; message: string }> {
    const dev = await api.request('PUT', `/integrations/${name}/dev`, { token: org.admin.token, body: { tunnelUrl: url, all: true } });
    if (dev.status === 400) return { status: 'refused', message: dev.body.error.message };
    expect(dev.status).toBe(204);
    const target = await newOrg();
    const install = await api.request('POST', `/integrations/${name}/installations`, { token: target.admin.token, body: { organization: target.id } });
    expect(install.status).toBe(201);
    for (let i = 0; i < 20; i++) {
      await pollOnce('integration-events', 1);
      const events = await api.request('GET', `/integrations/${name}/events`, { token: org.admin.token, query: { limit: 100 } });
      const event = events.body.items.find((e: { installationId: string }) => e.installationId === install.body.id);
      if (event && event.status !== 'pending') {
        const detail = await api.request('GET', `/integrations/${name}/events/${event.id}`, { token: org.admin.token });
        return { status: detail.body.event.status, message: detail.body.trace.logs.at(-1).message };
      }
    }
    throw new Error('the event was not dispatched');
  }

  it('delivers to an allowed tunnel (control)', async () => {
    expect(await dispatchTo(`${f.fixtureUrl}/events`)).toEqual({ status: 'success', message: 'Delivered to development tunnel: HTTP 200' });
  });

  it('refuses every matrix URL; a redirect is not followed', async () => {
    await expectAllRefused(async (c) => {
      const { status, message } = await dispatchTo(c.url);
      expect.soft(status, c.name).not.toBe('success');
      return message;
    }, (c) => (c.redirect ? /^Delivered to development tunnel: HTTP 302$/ : c.reason));
  }, 240_000);
});
