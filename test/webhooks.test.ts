import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { IncomingHttpHeaders } from 'node:http';
import { Webhook } from 'standardwebhooks';
import { newOrg, startTestApi, type TestApi, type TestOrg } from './support/api.ts';
import { pollOnce } from '../shared/local/queue-poller.ts';
import { getRecord } from '../shared/db/operations.ts';
import { integrationEntity } from '../shared/db/entities/integration.ts';
import { randomId } from '../shared/ids.ts';
import { startLoopbackServer, type LoopbackServer } from './support/loopback-server.ts';

/**
 * Integration event deliveries signed per Standard Webhooks (shared/integrations/signature.ts),
 * checked by a receiver written the way the specification tells integrators to write one.
 */
let api: TestApi;
let receiver: LoopbackServer;
let tunnelUrl: string;
let secret = '';
/** Every request the receiver got, with its verdict. */
const deliveries: { headers: IncomingHttpHeaders; body: string; status: number; error?: string }[] = [];
const processedIds = new Set<string>();

beforeAll(async () => {
  api = await startTestApi();
  receiver = await startLoopbackServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      let status = 204;
      let error: string | undefined;
      try {
        new Webhook(secret).verify(body, req.headers as Record<string, string>);
        // A verified id seen before is a redelivery or a replay: acknowledged, not processed again.
        const id = req.headers['webhook-id'] as string;
        if (processedIds.has(id)) status = 409;
        processedIds.add(id);
      } catch (e) {
        status = 400;
        error = (e as Error).message;
      }
      deliveries.push({ headers: req.headers, body, status, error });
      res.writeHead(status).end();
    });
  });
  tunnelUrl = `${receiver.url}/hook`;
});
afterAll(async () => {
  await receiver.close();
  await api.close();
});
afterEach(() => {
  vi.useRealTimers();
});

async function publish(org: TestOrg, name: string) {
  const res = await api.request('POST', `/integrations/${name}`, {
    token: org.admin.token,
    body: { title: 'Hooks', description: 'Receives events', organization: org.id, visibility: 'public' },
  });
  expect(res.status).toBeLessThan(300);
  return res.body;
}

/** Sends a captured delivery to the receiver again, as an attacker who recorded it would. */
async function resend(headers: IncomingHttpHeaders, body: string, change: Record<string, string> = {}) {
  const sent: Record<string, string> = { 'content-type': 'application/json' };
  for (const name of ['webhook-id', 'webhook-timestamp', 'webhook-signature']) sent[name] = headers[name] as string;
  const res = await fetch(tunnelUrl, { method: 'POST', headers: { ...sent, ...change }, body });
  return { status: res.status, error: deliveries.at(-1)!.error };
}

describe('signed integration event deliveries (Standard Webhooks)', () => {
  it('signs with the secret shown to the owner; the receiver verifies, and refuses replays, old timestamps and tampered bodies', async () => {
    const owner = await newOrg();
    const name = `hook-${randomId(10).toLowerCase()}`;
    const published = await publish(owner, name);
    secret = published.signingSecrets.integration;
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    // Only the owning organization's admins see it; it is not stored.
    const editor = await owner.member('edit');
    expect((await api.request('GET', `/integrations/${name}`, { token: editor.token })).body.signingSecrets).toBeUndefined();
    const stranger = await newOrg();
    expect((await api.request('GET', `/integrations/${name}`, { token: stranger.admin.token })).body.signingSecrets).toBeUndefined();
    expect(JSON.stringify(await getRecord(integrationEntity.key({ name })))).not.toContain(secret.slice(6));

    expect((await api.request('PUT', `/integrations/${name}/dev`, { token: owner.admin.token, body: { tunnelUrl, all: true } })).status).toBe(204);
    const target = await newOrg();
    const installed = await api.request('POST', `/integrations/${name}/installations`, { token: target.admin.token, body: { organization: target.id } });
    expect(installed.status).toBe(201);
    deliveries.length = 0;
    for (let i = 0; i < 5 && deliveries.length === 0; i++) await pollOnce('integration-events', 1);
    expect(deliveries).toHaveLength(1);
    const [delivery] = deliveries;
    expect(delivery!.error).toBeUndefined();
    expect(delivery!.status).toBe(204);

    // The headers: the event id (the same on every delivery of the event), the time, v1 signature.
    const events = (await api.request('GET', `/integrations/${name}/events`, { token: owner.admin.token })).body.items;
    expect(delivery!.headers['webhook-id']).toBe(events[0].id);
    expect(Math.abs(Number(delivery!.headers['webhook-timestamp']) - Date.now() / 1000)).toBeLessThan(30);
    expect(delivery!.headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);
    expect(delivery!.headers['x-dps-signature']).toBeUndefined();
    expect(JSON.parse(delivery!.body)).toMatchObject({ type: 'installation_setup', installationId: installed.body.id });
    const detail = await api.request('GET', `/integrations/${name}/events/${events[0].id}`, { token: owner.admin.token });
    expect(detail.body.event.status).toBe('success');

    // A replay of the recorded delivery: verified, but its id was processed already.
    expect((await resend(delivery!.headers, delivery!.body)).status).toBe(409);
    // A tampered body, a moved timestamp, a signature from another secret: refused.
    const tampered = delivery!.body.replace('installation_setup', 'installation_removed');
    expect(await resend(delivery!.headers, tampered)).toEqual({ status: 400, error: 'No matching signature found' });
    const fresh = String(Math.floor(Date.now() / 1000));
    expect(await resend(delivery!.headers, delivery!.body, { 'webhook-timestamp': fresh, 'webhook-id': 'other-id' })).toEqual({ status: 400, error: 'No matching signature found' });
    const forged = new Webhook(`whsec_${Buffer.alloc(32, 7).toString('base64')}`).sign('forged', new Date(), delivery!.body);
    expect(await resend(delivery!.headers, delivery!.body, { 'webhook-id': 'forged', 'webhook-signature': forged })).toEqual({ status: 400, error: 'No matching signature found' });

    // Six minutes later (past the 5-minute tolerance) even a receiver that forgot the id refuses it.
    processedIds.clear();
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + 6 * 60 * 1000);
    expect(() => new Webhook(secret).verify(delivery!.body, delivery!.headers as Record<string, string>)).toThrow('Message timestamp too old');
  });

  it('gives each integration its own secret, and a new one when a name is published again after deletion', async () => {
    const owner = await newOrg();
    const [a, b] = [`hook-${randomId(10).toLowerCase()}`, `hook-${randomId(10).toLowerCase()}`];
    const first = (await publish(owner, a)).signingSecrets.integration;
    expect((await publish(owner, b)).signingSecrets.integration).not.toBe(first);
    expect((await api.request('GET', `/integrations/${a}`, { token: owner.admin.token })).body.signingSecrets.integration).toBe(first);
    expect((await api.request('DELETE', `/integrations/${a}`, { token: owner.admin.token })).status).toBe(205);
    await new Promise((r) => setTimeout(r, 5)); // a new publication time
    expect((await publish(owner, a)).signingSecrets.integration).not.toBe(first);
    await pollOnce('integration-events');
  });
});
