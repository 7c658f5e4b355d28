import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApi, newOrg, newUser, type TestOrg } from './support/api.ts';
import { getRecord, queryAll } from '../shared/db/operations.ts';
import { installationLockKey, integrationEntity } from '../shared/db/entities/integration.ts';
import { pollOnce } from '../shared/local/queue-poller.ts';
import { Webhook } from 'standardwebhooks';
import { randomId } from '../shared/ids.ts';
import { ReceiveMessageCommand } from '@aws-sdk/client-sqs';
import { sqs } from '../shared/aws/clients.ts';
import { config } from '../shared/config.ts';
import { useLoopbackServer } from './support/loopback-server.ts';

const api = useTestApi();
// Retries one second apart, then two, instead of 30 and 60 (shared/integrations/dispatch.ts).
process.env.INTEGRATION_RETRY_BASE_SECONDS = '1';

const uniqueName = (prefix = 'int') => `${prefix}-${randomId(10).toLowerCase()}`;
const stored = (name: string) => getRecord(integrationEntity.key({ name }));

function publishBody(org: TestOrg, extra: Record<string, unknown> = {}) {
  return { title: 'My Integration', description: 'Does things', organization: org.id, visibility: 'public', ...extra };
}

async function publish(org: TestOrg, name: string, extra: Record<string, unknown> = {}) {
  const res = await api.request('POST', `/integrations/${name}`, { token: org.admin.token, body: publishBody(org, extra) });
  expect(res.status, JSON.stringify(res.body)).toBeLessThan(300);
  return res.body;
}

describe('POST /integrations/{integrationName}', () => {
  it('publishes with version 1, then updates with version 2; blobs and hashed secrets stored, never returned', async () => {
    const org = await newOrg();
    const name = uniqueName();
    const res = await api.request('POST', `/integrations/${name}`, {
      token: org.admin.token,
      body: publishBody(org, {
        icon: Buffer.from('png').toString('base64'), script: 'export default {}', scopes: ['space:content:read'],
        categories: ['analytics'], secrets: { API_KEY: 'super-secret' }, summary: '# Hi', target: 'space',
        blocks: [{ id: 'b1', title: 'Embed', urlUnfurl: ['https://*.example.com/'] }],
        externalLinks: [{ url: 'https://example.com', label: 'Site' }], contentSecurityPolicy: "script-src 'self'",
      }),
    });
    // 200 for the first publication too (the only success status the public interface documents).
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      object: 'integration', name, version: 1, title: 'My Integration', description: 'Does things', summary: '# Hi',
      target: 'space', verified: false, visibility: 'public', scopes: ['space:content:read'], categories: ['analytics'],
      blocks: [{ id: 'b1', title: 'Embed' }], contentSources: [], externalLinks: [{ url: 'https://example.com', label: 'Site' }],
      owner: { object: 'organization', id: org.id }, permissions: { admin: true }, contentSecurityPolicy: "script-src 'self'",
      urls: { location: `${api.url}/v1/integrations/${name}`, icon: expect.any(String) },
    });
    expect(res.body.urls.publicContentEndpoint).toBe(res.body.urls.publicEndpoint);
    expect(JSON.stringify(res.body)).not.toContain('super-secret');
    expect(res.body.secrets).toBeUndefined();
    const record = await stored(name);
    expect(record).toMatchObject({ ownerOrgId: org.id, version: 1, runtime: 'v1', iconBlob: expect.any(String), scriptBlob: expect.any(String), blockDomains: ['example.com'] });
    expect((record!.secretHashes as Record<string, string>).API_KEY).toMatch(/^[0-9a-f]{64}$/);
    // `runtime` takes both names of the public interface (v2 is what @gitbook/cli sends) and is stored as given.
    const again = await api.request('POST', `/integrations/${name}`, { token: org.admin.token, body: publishBody(org, { title: 'Renamed', runtime: 'v2' }) });
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ version: 2, title: 'Renamed' });
    expect(await stored(name)).toMatchObject({ version: 2, runtime: 'v2' });
    // The Standard Webhooks signing secret: shown to the owner's admins, the same across updates, never stored.
    expect(res.body.signingSecrets.integration).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(again.body.signingSecrets).toEqual(res.body.signingSecrets);
    expect(JSON.stringify(await stored(name))).not.toContain(res.body.signingSecrets.integration.slice(6));
  });

  it('400 naming the field, 401, 403, 404 for an unknown organization', async () => {
    const org = await newOrg();
    const name = uniqueName();
    for (const [body, field] of [
      [{ description: 'd', organization: org.id }, 'title'],
      [publishBody(org, { scopes: ['nope'] }), 'scopes.0'],
      [publishBody(org, { runtime: 'v3' }), 'runtime'],
      [publishBody(org, { visibility: 'everyone' }), 'visibility'],
      [publishBody(org, { icon: 'not base64!' }), 'icon'],
      [publishBody(org, { colour: 'red' }), 'colour'],
      [publishBody(org, { blocks: [{ id: 'b', title: 'B' }] }), 'blocks.0.title'],
      [publishBody(org, { contentSources: [{ id: 's', title: 'Source' }] }), 'contentSources.0.configuration'],
      [{ title: 'T', description: 'd' }, 'organization'],
    ] as const) {
      const res = await api.request('POST', `/integrations/${name}`, { token: org.admin.token, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.message).toMatch(new RegExp(`^${field.replace('.', '\\.')}: `));
    }
    expect((await api.request('POST', '/integrations/bad name', { token: org.admin.token, body: publishBody(org) })).status).toBe(400);
    expect((await api.request('POST', `/integrations/${name}`, { body: publishBody(org) })).status).toBe(401);
    const editor = await org.member('edit');
    expect((await api.request('POST', `/integrations/${name}`, { token: editor.token, body: publishBody(org) })).status).toBe(403);
    const res = await api.request('POST', `/integrations/${name}`, { token: org.admin.token, body: { ...publishBody(org), organization: 'no-such-org' } });
    expect(res.status).toBe(404);
    expect(res.body.error.message).toMatch(/organization/);
    expect(await stored(name)).toBeUndefined();
    // Another organization's admin cannot take over the name.
    await publish(org, name);
    const other = await newOrg();
    expect((await api.request('POST', `/integrations/${name}`, { token: other.admin.token, body: publishBody(other) })).status).toBe(403);
  });
});

describe('GET /integrations and /integrations/{integrationName}', () => {
  it('gets public integrations for anyone and private ones for owner members only', async () => {
    const org = await newOrg();
    const name = uniqueName();
    await publish(org, name, { visibility: 'private' });
    const reader = await org.member('read');
    const res = await api.request('GET', `/integrations/${name}`, { token: reader.token });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ name, permissions: { admin: false } });
    expect(res.body.signingSecrets).toBeUndefined();
    const asOwner = await api.request('GET', `/integrations/${name}`, { token: org.admin.token });
    expect(asOwner.body.signingSecrets.integration).toMatch(/^whsec_/);
    const stranger = await newUser('Stranger');
    expect((await api.request('GET', `/integrations/${name}`, { token: stranger.token })).status).toBe(404);
    expect((await api.request('GET', `/integrations/${uniqueName()}`, { token: stranger.token })).status).toBe(404);
    expect((await api.request('GET', `/integrations/${name}`)).status).toBe(401);
  });

  it('lists with every filter and paginates', async () => {
    const org = await newOrg();
    const tag = randomId(8).toLowerCase();
    const a = uniqueName(`a${tag}`);
    const b = uniqueName(`b${tag}`);
    const c = uniqueName(`c${tag}`);
    await publish(org, a, { categories: ['analytics'], scopes: ['space:content:read'], target: 'space', blocks: [{ id: 'x', title: 'Xx', urlUnfurl: ['https://figma.com/file'] }] });
    await publish(org, b, { categories: ['collaboration'], target: 'site', contentSources: [{ id: 's', title: 'Source', configuration: { componentId: 'configure' } }] });
    await publish(org, c, { visibility: 'private' });
    const stranger = await newUser('Stranger');
    const list = async (query: Record<string, string | number>, token = stranger.token) => {
      const res = await api.request('GET', '/integrations', { token, query: { search: tag, ...query } });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return res.body.items.map((i: { name: string }) => i.name);
    };
    expect(await list({})).toEqual([a, b]);
    expect(await list({ owner: org.id }, org.admin.token)).toEqual([a, b, c]);
    expect(await list({ owner: org.id })).toEqual([a, b]);
    expect(await list({ category: 'analytics' })).toEqual([a]);
    expect(await list({ scope: 'space:content:read' })).toEqual([a]);
    expect(await list({ target: 'site' })).toEqual([b]);
    expect(await list({ blocks: 'true' })).toEqual([a]);
    expect(await list({ contentSources: 'true' })).toEqual([b]);
    expect(await list({ blockDomain: 'figma.com' })).toEqual([a]);
    const first = await api.request('GET', '/integrations', { token: stranger.token, query: { search: tag, limit: 1 } });
    expect(first.body).toMatchObject({ count: 1, items: [{ name: a }], next: { page: expect.any(String) } });
    const second = await api.request('GET', '/integrations', { token: stranger.token, query: { search: tag, limit: 1, page: first.body.next.page } });
    expect(second.body.items.map((i: { name: string }) => i.name)).toEqual([b]);
    const bad = await api.request('GET', '/integrations', { token: stranger.token, query: { blocks: 'maybe' } });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toMatch(/^blocks: /);
    expect((await api.request('GET', '/integrations', { token: stranger.token, query: { limit: 1001 } })).status).toBe(400);
  });
});

describe('DELETE /integrations/{integrationName}', () => {
  it('204 when absent, 403 for non-admins, 205 and everything removed when deleted', async () => {
    const org = await newOrg();
    const name = uniqueName();
    expect((await api.request('DELETE', `/integrations/${name}`, { token: org.admin.token })).status).toBe(204);
    await publish(org, name);
    const target = await newOrg();
    expect((await api.request('POST', `/integrations/${name}/installations`, { token: target.admin.token, body: { organization: target.id } })).status).toBe(201);
    const editor = await org.member('edit');
    expect((await api.request('DELETE', `/integrations/${name}`, { token: editor.token })).status).toBe(403);
    expect((await api.request('DELETE', `/integrations/${name}`, { token: org.admin.token })).status).toBe(205);
    expect(await queryAll({ partition: `INTEGRATION#${name}` })).toEqual([]);
    expect((await api.request('GET', `/integrations/${name}`, { token: org.admin.token })).status).toBe(404);
    expect((await api.request('DELETE', `/integrations/${name}`)).status).toBe(401);
    await pollOnce('integration-events'); // drain: the event is gone, the job is a no-op
  });
});

describe('installations, dev mode, events and dispatch', () => {
  let tunnelUrl: string;
  const received: { headers: Record<string, string | string[] | undefined>; body: string }[] = [];
  let answer = 200;
  const tunnel = useLoopbackServer((req, res) => {
    let body = '';
    req.on('data', (d) => { body += d; });
    req.on('end', () => {
      received.push({ headers: req.headers, body });
      res.statusCode = answer;
      res.end('ok');
    });
  });
  beforeAll(() => {
    tunnelUrl = `${tunnel.url}/events`;
  });

  it('installs, records installation_setup and delivers it signed to the dev tunnel', async () => {
    const owner = await newOrg();
    const name = uniqueName();
    await publish(owner, name);
    const dev = await api.request('PUT', `/integrations/${name}/dev`, { token: owner.admin.token, body: { tunnelUrl, all: true } });
    expect(dev.status).toBe(204);
    expect(await stored(name)).toMatchObject({ devTunnelUrl: tunnelUrl, devForwardAll: true });

    const target = await newOrg();
    const res = await api.request('POST', `/integrations/${name}/installations`, { token: target.admin.token, body: { organization: target.id } });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      id: expect.any(String), status: 'active', space_selection: 'all', site_selection: 'all', configuration: {},
      externalIds: [], target: { organization: target.id }, urls: { location: expect.any(String) },
    });
    expect(res.headers.get('location')).toBe(res.body.urls.location);
    expect(await getRecord(installationLockKey(name, target.id))).toMatchObject({ installationId: res.body.id });
    const dup = await api.request('POST', `/integrations/${name}/installations`, { token: target.admin.token, body: { organization: target.id } });
    expect(dup.status).toBe(409);

    const events = await api.request('GET', `/integrations/${name}/events`, { token: owner.admin.token });
    expect(events.status).toBe(200);
    expect(events.body.items).toHaveLength(1);
    const event = events.body.items[0];
    expect(event).toMatchObject({
      integrationId: name, installationId: res.body.id, status: 'pending',
      payload: { eventId: event.id, type: 'installation_setup', installationId: res.body.id, status: 'active' },
    });

    received.length = 0;
    answer = 200;
    for (let i = 0; i < 5 && received.length === 0; i++) await pollOnce('integration-events', 1);
    expect(received).toHaveLength(1);
    expect(JSON.parse(received[0]!.body)).toEqual(event.payload);
    const { signingSecrets } = (await api.request('GET', `/integrations/${name}`, { token: owner.admin.token })).body;
    expect(received[0]!.headers['webhook-id']).toBe(event.id);
    expect(new Webhook(signingSecrets.integration).verify(received[0]!.body, received[0]!.headers as Record<string, string>)).toEqual(event.payload);

    const detail = await api.request('GET', `/integrations/${name}/events/${event.id}`, { token: owner.admin.token });
    expect(detail.status).toBe(200);
    expect(detail.body.event).toMatchObject({ id: event.id, status: 'success' });
    expect(detail.body.trace.logs).toContainEqual({ message: 'Delivered to development tunnel: HTTP 200', timestamp: expect.any(String), level: 'debug' });

    // A failing tunnel (5xx) is retried: SQS redelivers after the visibility timeout, and the
    // third failure marks the event failed, every attempt's status logged (then the DLQ).
    answer = 500;
    const third = await newOrg();
    const res3 = await api.request('POST', `/integrations/${name}/installations`, { token: third.admin.token, body: { organization: third.id } });
    expect(res3.status).toBe(201);
    received.length = 0;
    const arrivals: number[] = [];
    for (let i = 0; i < 30 && received.length < 3; i++) {
      const before = received.length;
      await pollOnce('integration-events', 1);
      if (received.length > before) arrivals.push(Date.now());
    }
    expect(received).toHaveLength(3);
    expect(new Set(received.map((r) => r.headers['webhook-id'])).size).toBe(1);
    // Backoff (INTEGRATION_RETRY_BASE_SECONDS = 1 here): 1 s, then 2 s before the next attempt.
    expect(arrivals[1]! - arrivals[0]!).toBeGreaterThanOrEqual(900);
    expect(arrivals[2]! - arrivals[1]!).toBeGreaterThanOrEqual(1900);
    // After the last attempt the message goes to the dead-letter queue (on its next receive).
    await new Promise((r) => setTimeout(r, 4100));
    await pollOnce('integration-events', 0);
    const dlq = await sqs().send(new ReceiveMessageCommand({ QueueUrl: `${config.queueUrl('integration-events')}-dlq`, MaxNumberOfMessages: 10, WaitTimeSeconds: 1 }));
    expect((dlq.Messages ?? []).map((m) => JSON.parse(m.Body!).eventId)).toContain(received[0]!.headers['webhook-id']);
    const list = await api.request('GET', `/integrations/${name}/events`, { token: owner.admin.token, query: { limit: 1 } });
    expect(list.body.items).toHaveLength(1);
    expect(list.body.next.page).toEqual(expect.any(String));
    const failed = await api.request('GET', `/integrations/${name}/events/${list.body.items[0].id}`, { token: owner.admin.token });
    expect(failed.body.event.status).toBe('failed');
    const failedLines = failed.body.trace.logs.map((l: { message: string }) => l.message);
    expect(failedLines.filter((m: string) => m === 'Delivered to development tunnel: HTTP 500')).toHaveLength(3);
    expect(failedLines).toContain('Giving up after 3 attempts');

    // Installations: owner admins list them, with the externalId filter.
    const installs = await api.request('GET', `/integrations/${name}/installations`, { token: owner.admin.token });
    expect(installs.status).toBe(200);
    expect(installs.body.items.map((i: { id: string }) => i.id).sort()).toEqual([res.body.id, res3.body.id].sort());
    const none = await api.request('GET', `/integrations/${name}/installations`, { token: owner.admin.token, query: { externalId: 'x' } });
    expect(none.body.items).toEqual([]);
    const page1 = await api.request('GET', `/integrations/${name}/installations`, { token: owner.admin.token, query: { limit: 1 } });
    expect(page1.body.items).toHaveLength(1);
    expect(page1.body.next.page).toEqual(expect.any(String));
  });

  it('marks the event delivered with a log line when no tunnel is set', async () => {
    const owner = await newOrg();
    const name = uniqueName();
    await publish(owner, name);
    const target = await newOrg();
    expect((await api.request('POST', `/integrations/${name}/installations`, { token: target.admin.token, body: { organization: target.id } })).status).toBe(201);
    for (let i = 0; i < 3; i++) await pollOnce('integration-events', 1);
    const events = await api.request('GET', `/integrations/${name}/events`, { token: owner.admin.token });
    expect(events.body.items[0].status).toBe('success');
  });

  it('without `all`, forwards only the owning organization\'s events to the tunnel', async () => {
    const owner = await newOrg();
    const name = uniqueName();
    await publish(owner, name);
    expect((await api.request('PUT', `/integrations/${name}/dev`, { token: owner.admin.token, body: { tunnelUrl } })).status).toBe(204);
    expect(await stored(name)).toMatchObject({ devForwardAll: false });
    answer = 200;
    received.length = 0;
    const other = await newOrg();
    const foreign = await api.request('POST', `/integrations/${name}/installations`, { token: other.admin.token, body: { organization: other.id } });
    expect(foreign.status).toBe(201);
    for (let i = 0; i < 3; i++) await pollOnce('integration-events', 1);
    expect(received.filter((r) => JSON.parse(r.body).installationId === foreign.body.id)).toEqual([]);
    const own = await api.request('POST', `/integrations/${name}/installations`, { token: owner.admin.token, body: { organization: owner.id } });
    expect(own.status).toBe(201);
    for (let i = 0; i < 5 && !received.some((r) => JSON.parse(r.body).installationId === own.body.id); i++) await pollOnce('integration-events', 1);
    expect(received.map((r) => JSON.parse(r.body).installationId)).toEqual([own.body.id]);
    const events = (await api.request('GET', `/integrations/${name}/events`, { token: owner.admin.token })).body.items;
    const foreignEvent = events.find((e: { installationId: string }) => e.installationId === foreign.body.id);
    const detail = await api.request('GET', `/integrations/${name}/events/${foreignEvent.id}`, { token: owner.admin.token });
    expect(detail.body.event.status).toBe('success');
    expect(detail.body.trace.logs.at(-1).message).toMatch(/only the owning organization/);
  });

  it('errors: 400, 401, 403, 404', async () => {
    const owner = await newOrg();
    const name = uniqueName();
    await publish(owner, name);
    const editor = await owner.member('edit');
    const target = await newOrg();
    const targetEditor = await target.member('edit');
    const missing = uniqueName();
    const post = (token: string | null, n: string, body: unknown) => api.request('POST', `/integrations/${n}/installations`, { token, body });
    expect((await post(target.admin.token, missing, { organization: target.id })).status).toBe(404);
    expect((await post(target.admin.token, name, { organization: 'no-such-org' })).status).toBe(404);
    expect((await post(targetEditor.token, name, { organization: target.id })).status).toBe(403);
    expect((await post(null, name, { organization: target.id })).status).toBe(401);
    const bad = await post(target.admin.token, name, {});
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toMatch(/^organization: /);
    for (const path of ['installations', 'events', `events/${'0'.repeat(9)}abc`]) {
      expect((await api.request('GET', `/integrations/${name}/${path}`, { token: editor.token })).status, path).toBe(403);
      expect((await api.request('GET', `/integrations/${missing}/${path}`, { token: owner.admin.token })).status, path).toBe(404);
      expect((await api.request('GET', `/integrations/${name}/${path}`)).status, path).toBe(401);
    }
    expect((await api.request('GET', `/integrations/${name}/events/nope`, { token: owner.admin.token })).status).toBe(404);
    expect((await api.request('GET', `/integrations/${name}/events/${'0'.repeat(9)}abc`, { token: owner.admin.token })).status).toBe(404);
    const dev = (token: string | null, n: string, body: unknown) => api.request('PUT', `/integrations/${n}/dev`, { token, body });
    const badDev = await dev(owner.admin.token, name, { all: true });
    expect(badDev.status).toBe(400);
    expect(badDev.body.error.message).toMatch(/^tunnelUrl: /);
    expect((await dev(owner.admin.token, name, { tunnelUrl: 'http://x', all: 'yes' })).status).toBe(400);
    expect((await dev(editor.token, name, { tunnelUrl: 'http://127.0.0.1:1/' })).status).toBe(403);
    expect((await dev(owner.admin.token, missing, { tunnelUrl: 'http://127.0.0.1:1/' })).status).toBe(404);
    expect((await dev(null, name, { tunnelUrl: 'http://127.0.0.1:1/' })).status).toBe(401);
  });
});

describe('GET /integrations/{integrationName}/spaces and /sites', () => {
  it('lists every live space and site of the installed organizations, ids or objects, paginated', async () => {
    const owner = await newOrg();
    const name = uniqueName();
    await publish(owner, name);
    const target = await newOrg();
    const s1 = (await api.request('POST', `/orgs/${target.id}/spaces`, { token: target.admin.token, body: { title: 'One' } })).body;
    const s2 = (await api.request('POST', `/orgs/${target.id}/spaces`, { token: target.admin.token, body: { title: 'Two' } })).body;
    const s3 = (await api.request('POST', `/orgs/${target.id}/spaces`, { token: target.admin.token, body: { title: 'Gone' } })).body;
    expect((await api.request('DELETE', `/spaces/${s3.id}`, { token: target.admin.token })).status).toBeLessThan(300);
    const site = await api.request('POST', `/orgs/${target.id}/sites`, { token: target.admin.token, body: { title: 'Docs' } });
    expect(site.status).toBeLessThan(300);
    const empty = await api.request('GET', `/integrations/${name}/spaces`, { token: owner.admin.token });
    expect(empty.body).toMatchObject({ items: [], count: 0 });
    const inst = await api.request('POST', `/integrations/${name}/installations`, { token: target.admin.token, body: { organization: target.id } });
    expect(inst.status).toBe(201);

    const spaces = await api.request('GET', `/integrations/${name}/spaces`, { token: owner.admin.token });
    expect(spaces.status).toBe(200);
    expect(spaces.body.items.map((i: { space: string }) => i.space)).toEqual([s1.id, s2.id]);
    expect(spaces.body.items[0]).toMatchObject({
      integration: name, installation: inst.body.id, status: 'active', configuration: {}, externalIds: [],
      urls: { location: expect.stringContaining(`/installations/${inst.body.id}/spaces/${s1.id}`), publicEndpoint: expect.any(String) },
    });
    const extended = await api.request('GET', `/integrations/${name}/spaces`, { token: owner.admin.token, query: { extended: 'true', limit: 1 } });
    expect(extended.body.items).toHaveLength(1);
    expect(extended.body.items[0].space).toMatchObject({ object: 'space', id: s1.id, title: 'One' });
    const next = await api.request('GET', `/integrations/${name}/spaces`, { token: owner.admin.token, query: { limit: 1, page: extended.body.next.page } });
    expect(next.body.items.map((i: { space: string }) => i.space)).toEqual([s2.id]);
    expect(next.body.next).toBeUndefined();

    const sites = await api.request('GET', `/integrations/${name}/sites`, { token: owner.admin.token, query: { extended: 'true' } });
    expect(sites.status).toBe(200);
    expect(sites.body.items).toHaveLength(1);
    expect(sites.body.items[0]).toMatchObject({ installation: inst.body.id, site: { object: 'site', id: site.body.id } });
    expect((await api.request('GET', `/integrations/${name}/sites`, { token: owner.admin.token, query: { externalId: 'nope' } })).body.items).toEqual([]);

    const editor = await owner.member('edit');
    expect((await api.request('GET', `/integrations/${name}/spaces`, { token: editor.token })).status).toBe(403);
    expect((await api.request('GET', `/integrations/${uniqueName()}/sites`, { token: owner.admin.token })).status).toBe(404);
    expect((await api.request('GET', `/integrations/${name}/sites`)).status).toBe(401);
    const bad = await api.request('GET', `/integrations/${name}/spaces`, { token: owner.admin.token, query: { extended: 'yes' } });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toMatch(/^extended: /);
    expect((await api.request('GET', `/integrations/${name}/spaces`, { token: owner.admin.token, query: { page: 'garbage' } })).status).toBe(400);
    await pollOnce('integration-events', 1);
  });
});
