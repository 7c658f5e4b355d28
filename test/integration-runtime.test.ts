import { describe, expect, it } from 'vitest';
import * as gitbookApi from '@gitbook/api';
import { newOrg, useTestApi, type TestOrg } from './support/api.ts';
import { createChangeRequest, createSpace, editChangeRequest, mergeChangeRequest } from './support/factories.ts';
import { integrationClient, messages, publishScript, settled as settledIn, uniqueName } from './support/integrations.ts';
import { integrationScopes } from '../shared/http/token-scopes.ts';
import { buildFixture } from './fixtures/integrations/build.ts';
import { installationEntity, integrationEntity } from '../shared/db/entities/integration.ts';
import { INSTALLATION_TOKEN_TTL_SECONDS, mintInstallationToken } from '../shared/integrations/installation-token.ts';
import { advanceClock, nowEpochSeconds, resetClock } from '../shared/clock.ts';
import { installationTokenEntity, tokenEntity } from '../shared/db/entities/token.ts';
import { getRecord } from '../shared/db/operations.ts';
import { sha256Hex } from '../shared/ids.ts';
import { PUBLIC_ENDPOINT_SANDBOX } from '../functions/integrations/public-endpoint.ts';
import { TRACE_LINE_CHARS, TRACE_LINES_PER_RUN } from '../shared/integrations/runtime.ts';

/**
 * Published scripts run in workerd (shared/integrations/runtime.ts): an integration written
 * with @gitbook/runtime, bundled as @gitbook/cli bundles it, published and installed with
 * the official client, handles its events with an installation token limited to its scopes,
 * answers on its public endpoint, and is stopped when it runs away. Every event type the
 * service emits, with its payload: test/integration-events.test.ts.
 */
const api = useTestApi();
const client = (token: string) => integrationClient(api, token);
const publish = (org: TestOrg, name: string, script: string, extra: { scopes?: string[]; secrets?: Record<string, string> } = {}) => publishScript(api, org, name, script, extra);
const settled = (org: TestOrg, name: string, type: string) => settledIn(api, org, name, type);

describe('integration scopes', () => {
  it('names every scope of the public interface and nothing else', () => {
    const enums = gitbookApi as unknown as Record<'IntegrationScope' | 'APIIntegrationScope', Record<string, string>>;
    const published = [...Object.values(enums.IntegrationScope), ...Object.values(enums.APIIntegrationScope)];
    expect([...integrationScopes].sort()).toEqual(published.sort());
  });
});

describe('installation tokens', () => {
  it('reach only the installation\'s organization, only with the integration\'s scopes, and expire', async () => {
    const org = await newOrg();
    const other = await newOrg();
    const space = await createSpace(api, org, { title: 'Mine' });
    const foreign = await createSpace(api, other, { title: 'Theirs' });
    const name = uniqueName('scoped');
    await publish(org, name, await buildFixture('hello'), { scopes: ['space:metadata:read', 'space:content:read'] });
    const installation = (await client(org.admin.token).integrations.installIntegration(name, { organization: org.id } as never)).data;
    const integration = (await integrationEntity.get({ name }))!;
    const token = await mintInstallationToken(integration, (await installationEntity.get({ name, installationId: installation.id }))!);
    // Stored in installation tokens' own partitions, which the runtime may write; never a user token's (TOKEN#).
    expect(token).toMatch(/^dpsi_/);
    expect(await getRecord(installationTokenEntity.key({ hash: sha256Hex(token) }))).toMatchObject({ integration: { name, installationId: installation.id } });
    expect(await getRecord(tokenEntity.key({ hash: sha256Hex(token) }))).toBeUndefined();

    expect((await api.request('GET', `/spaces/${space.id}`, { token })).status).toBe(200);
    expect((await api.request('GET', `/spaces/${space.id}/content`, { token })).status).toBe(200);
    // It is its installation: GET /user presents it by the integration's name (there is no user record behind it).
    const me = await api.request('GET', '/user', { token });
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ object: 'user', id: `integration:${name}:${installation.id}`, displayName: name, email: '' });
    // Another organization's space does not exist for it.
    expect((await api.request('GET', `/spaces/${foreign.id}`, { token })).status).toBe(404);
    // Scopes it lacks, and operations closed to integrations, are refused naming the scope.
    const write = await api.request('PATCH', `/spaces/${space.id}`, { token, body: { title: 'Renamed' } });
    expect(write.status).toBe(403);
    expect(write.body.error.message).toContain('space:metadata:write');
    expect((await api.request('GET', `/orgs/${org.id}/members`, { token })).status).toBe(403);
    expect((await api.request('GET', `/spaces/${space.id}`, { token: org.admin.token })).body.title).toBe('Mine');
    // An hour later it no longer authenticates.
    advanceClock((INSTALLATION_TOKEN_TTL_SECONDS + 1) * 1000);
    try {
      expect((await api.request('GET', `/spaces/${space.id}`, { token })).status).toBe(401);
    } finally {
      resetClock();
    }
  }, 60_000);
});

describe('what an installation writes', () => {
  it('is shown as written by the integration (createdBy names it), not by a blank user', async () => {
    const org = await newOrg();
    const space = await createSpace(api, org, { title: 'Synced' });
    const name = uniqueName('writer');
    await publish(org, name, await buildFixture('hello'), { scopes: ['space:content:read', 'space:content:write'] });
    const installation = (await client(org.admin.token).integrations.installIntegration(name, { organization: org.id } as never)).data;
    const integration = (await integrationEntity.get({ name }))!;
    const token = await mintInstallationToken(integration, (await installationEntity.get({ name, installationId: installation.id }))!);
    const created = await api.request('POST', `/spaces/${space.id}/change-requests`, { token, body: { subject: 'Sync from the tracker' } });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const read = await api.request('GET', `/spaces/${space.id}/change-requests/${created.body.id}`, { token: org.admin.token });
    expect(read.body.createdBy).toMatchObject({ id: `integration:${name}:${installation.id}`, displayName: name });
  }, 60_000);
});

describe('published scripts in workerd', () => {
  it('runs installation_setup with an installation token: allowed scope answers, missing scope is 403; console lines are in the trace', async () => {
    const org = await newOrg();
    await createSpace(api, org, { title: 'Existing' });
    const name = uniqueName('hello');
    await publish(org, name, await buildFixture('hello'), { scopes: ['space:metadata:read'] });
    const installed = await client(org.admin.token).integrations.installIntegration(name, { organization: org.id } as never);
    expect(installed.status).toBe(201);

    const detail = await settled(org, name, 'installation_setup');
    expect(detail.event.status).toBe('success');
    const lines = messages(detail);
    expect(lines).toContain(`setup of ${installed.data.id} in ${org.id}`);
    expect(lines).toContain('allowed: listed 1 spaces');
    expect(lines).toContain('refused: HTTP 403');
    expect(detail.trace.logs.find((l: { message: string }) => l.message === 'refused: HTTP 403').level).toBe('warn');
    // The refused write left nothing behind.
    const spaces = await api.request('GET', `/orgs/${org.id}/spaces`, { token: org.admin.token });
    expect(spaces.body.items.map((s: { title: string }) => s.title)).toEqual(['Existing']);
    // The space of the organization got its own setup event (the script does not handle it: 406, failed for good).
    const spaceSetup = await settled(org, name, 'space_installation_setup');
    expect(spaceSetup.event.payload.spaceId).toBe(spaces.body.items[0].id);
    expect(spaceSetup.event.status).toBe('failed');
    expect(messages(spaceSetup)).toContain('Script answered HTTP 406');
  }, 60_000);

  it('emits space_content_updated to installed integrations when a change request is merged', async () => {
    const org = await newOrg();
    const space = await createSpace(api, org, { title: 'Docs' });
    const name = uniqueName('hello');
    await publish(org, name, await buildFixture('hello'));
    await client(org.admin.token).integrations.installIntegration(name, { organization: org.id } as never);
    const cr = await createChangeRequest(api, org, space);
    await editChangeRequest(api, org, space, cr, [{ operation: 'insert_page', title: 'New page', document: { markdown: 'Hello\n' } }]);
    const merged = await mergeChangeRequest(api, org, space, cr);
    const detail = await settled(org, name, 'space_content_updated');
    expect(detail.event.payload).toMatchObject({ type: 'space_content_updated', spaceId: space.id, revisionId: merged.revision, installationId: expect.any(String) });
    // The hello script handles only installation_setup: 406, recorded as failed with the script's answer.
    expect(detail.event.status).toBe('failed');
    expect(messages(detail)).toContain('Script answered HTTP 406');
  }, 60_000);

  it('forwards requests on the public endpoints of the integration and of an installation to the script\'s fetch handler', async () => {
    const org = await newOrg();
    const name = uniqueName('hello');
    const published = await publish(org, name, await buildFixture('hello'), { secrets: { GREETING: 'hi there' } });
    const res = await fetch(`${published.urls.publicEndpoint}/hooks/chat?x=1`, { method: 'POST', body: 'ping', headers: { 'content-type': 'text/plain' } });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ integration: name, installation: null, method: 'POST', path: `/v1/integrations/${name}/public/hooks/chat`, body: 'ping', secret: 'hi there' });

    const installation = (await client(org.admin.token).integrations.installIntegration(name, { organization: org.id } as never)).data;
    const viaInstallation = await fetch(installation.urls.publicEndpoint);
    expect(viaInstallation.status).toBe(200);
    expect((await viaInstallation.json()).installation).toBe(installation.id);

    expect((await fetch(`${api.url}/v1/integrations/${uniqueName('none')}/public`)).status).toBe(404);
    expect((await fetch(`${published.urls.publicEndpoint}/installations/nope`)).status).toBe(404);
  }, 60_000);

  it('keeps a public endpoint\'s answer off the service\'s origin: no cookies, a sandboxed page', async () => {
    const org = await newOrg();
    const name = uniqueName('hostile');
    const published = await publish(org, name, await buildFixture('hostile'));
    const res = await fetch(`${published.urls.publicEndpoint}/page`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html');
    expect(res.headers.get('set-cookie')).toBeNull();
    expect(res.headers.get('content-security-policy')).toBe(`img-src 'self', ${PUBLIC_ENDPOINT_SANDBOX}`);
    expect(res.headers.get('content-security-policy')).not.toMatch(/allow-same-origin/);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(await res.text()).toContain('<script>');
  }, 60_000);

  it('answers a refused outbound fetch with the reason only (no stack of the service) and a script that never settles with a clear failure', async () => {
    const org = await newOrg();
    const name = uniqueName('hostile');
    const published = await publish(org, name, await buildFixture('hostile'));
    // A private address (the tests allow only 127.0.0.1, for their loopback servers).
    const refused = await fetch(`${published.urls.publicEndpoint}/private?url=${encodeURIComponent('http://10.0.0.1/secret')}`);
    expect(refused.status).toBe(200);
    const seen = await refused.json();
    expect(seen).toEqual({ status: 502, error: '1', body: 'fetch: 10.0.0.1 is a private address (10.0.0.1) and EGRESS_ALLOWLIST does not allow it' });

    const hung = await fetch(`${published.urls.publicEndpoint}/hang`);
    expect(hung.status).toBe(502);
    const hungText = await hung.text();
    expect(JSON.parse(hungText)).toEqual({ error: { code: 502, message: 'The integration failed: The script never answered: it waits on a promise that can never settle' } });
    expect(hungText).not.toMatch(/miniflare|node_modules|\bat /);

    // As an event: the refusal is in the trace, and the hung script fails at once (it would hang again).
    await client(org.admin.token).integrations.installIntegration(name, { organization: org.id } as never);
    const detail = await settled(org, name, 'installation_setup');
    expect(detail.event.status).toBe('failed');
    const lines = messages(detail);
    expect(lines).toContain('metadata: HTTP 502');
    expect(lines).toContain('Outbound request GET http://169.254.169.254/latest/meta-data/ failed: fetch: 169.254.169.254 is a cloud metadata address (169.254.169.254), which is never allowed');
    expect(lines).toContain('The script never answered: it waits on a promise that can never settle');
    expect(lines.some((l: string) => /retrying|node_modules|outbound\.ts/.test(l))).toBe(false);
  }, 60_000);

  it('says why a script could not start (workerd\'s own message), on its public endpoint and in its event\'s trace', async () => {
    const org = await newOrg();
    const cases = [
      ['throw new Error("top-level boom"); export default { fetch() { return new Response("x"); } };', 'The script could not start: Uncaught Error: top-level boom\n  at script-0:1:7'],
      ['import fs from "node:fs"; export default { fetch() { return new Response(String(fs.readdirSync("/"))); } };', 'The script could not start: Uncaught Error: No such module "node:fs".\n  imported from "script-0"'],
    ] as const;
    for (const [script, message] of cases) {
      const name = uniqueName('nostart');
      const published = await publish(org, name, script);
      const res = await fetch(`${published.urls.publicEndpoint}/x`);
      expect(res.status).toBe(502);
      expect(await res.json()).toEqual({ error: { code: 502, message: `The integration failed: ${message}` } });
    }
    const name = uniqueName('nostart');
    await publish(org, name, cases[0][0]);
    await client(org.admin.token).integrations.installIntegration(name, { organization: org.id } as never);
    const detail = await settled(org, name, 'installation_setup');
    expect(detail.event.status).toBe('failed'); // the same script fails the same way: not retried
    expect(messages(detail)).toContain(cases[0][1]);
  }, 60_000);

  it('keeps a bounded trace of a script that logs without end: long lines cut, the rest counted in a last line', async () => {
    const org = await newOrg();
    const name = uniqueName('chatty');
    await publish(org, name, await buildFixture('hostile'));
    await client(org.admin.token).integrations.installIntegration(name, { organization: org.id } as never);
    const detail = await settled(org, name, 'installation_setup');
    expect(detail.event.status).toBe('success'); // stored: the trace fits the event's item
    const lines = messages(detail);
    expect(lines).toContain(`${'x'.repeat(TRACE_LINE_CHARS)}… (10000 characters)`);
    const kept = lines.filter((l: string) => l.startsWith('line '));
    expect(kept.length).toBeGreaterThan(100);
    expect(kept.length).toBeLessThan(TRACE_LINES_PER_RUN);
    expect(lines).toContain(`${5_000 - kept.length} more lines left out: the trace keeps ${TRACE_LINES_PER_RUN} lines and 24 K characters of a run`);
    expect(lines.at(-1)).toBe('Script answered HTTP 200');
  }, 60_000);

  it('counts public endpoint requests per client address and integration (READER_RATE_LIMIT_PER_MINUTE) before anything is read', async () => {
    const now = nowEpochSeconds();
    advanceClock((60 - (now % 60) + 1) * 1000); // one second into a fresh window
    process.env.READER_RATE_LIMIT_PER_MINUTE = '2';
    try {
      const [one, two] = [uniqueName('limited'), uniqueName('limited')];
      for (let i = 0; i < 2; i++) {
        const res = await fetch(`${api.url}/v1/integrations/${one}/public/hook`, { method: 'POST', body: 'x' });
        expect(res.status).toBe(404); // no such integration: still counted, each request may start a script
        expect(res.headers.get('x-ratelimit-remaining')).toBe(String(1 - i));
      }
      const refused = await fetch(`${api.url}/v1/integrations/${one}/public/hook`, { method: 'POST', body: 'x' });
      expect(refused.status).toBe(429);
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect((await refused.json()).error.message).toMatch(/^Too many requests: calling an integration's public endpoint from one address is limited to 2 requests per minute/);
      // Another integration's endpoint has its own count.
      expect((await fetch(`${api.url}/v1/integrations/${two}/public/hook`)).status).toBe(404);
    } finally {
      delete process.env.READER_RATE_LIMIT_PER_MINUTE;
      resetClock();
    }
  });

  it('stops a script that loops forever (CPU time) or allocates without bound (memory) and records the event as failed', async () => {
    process.env.INTEGRATION_CPU_MS = '500';
    process.env.INTEGRATION_MEMORY_MB = '128';
    try {
      const script = await buildFixture('runaway');
      for (const [prefix, limit] of [['loop', 'CPU time'], ['alloc', 'memory']] as const) {
        const org = await newOrg();
        const name = uniqueName(prefix);
        await publish(org, name, script);
        await client(org.admin.token).integrations.installIntegration(name, { organization: org.id } as never);
        const detail = await settled(org, name, 'installation_setup');
        expect(detail.event.status).toBe('failed');
        expect(messages(detail)).toContain('running away');
        expect(messages(detail).some((m: string) => m.includes(limit) && m.includes('stopped'))).toBe(true);
      }
    } finally {
      delete process.env.INTEGRATION_CPU_MS;
      delete process.env.INTEGRATION_MEMORY_MB;
    }
  }, 90_000);
});
