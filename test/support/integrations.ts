import { officialClient } from './official-client.ts';
import { pollOnce } from '../../shared/local/queue-poller.ts';
import { randomId } from '../../shared/ids.ts';
import type { QueueName } from '../../shared/config.ts';
import type { TestApi, TestOrg } from './api.ts';

/**
 * Integrations published, installed and watched through the API, as the official client
 * does (test/integration-runtime.test.ts, test/integration-events.test.ts,
 * test/integrations-cli.test.ts). Each file passes its own test API.
 */

/** The official client (@gitbook/api) against the test API. */
export const integrationClient = officialClient;

/** An integration name no other test uses. */
export const uniqueName = (prefix: string) => `${prefix}-${randomId(10).toLowerCase()}`;

/** Publishes (or publishes again) a private integration of `org` with `script`; the presented integration. */
export async function publishScript(api: TestApi, org: TestOrg, name: string, script: string, extra: { scopes?: string[]; secrets?: Record<string, string> } = {}) {
  const res = await integrationClient(api, org.admin.token).integrations.publishIntegration(name, {
    title: 'Runtime test', description: 'Runs in workerd', organization: org.id, visibility: 'private', script,
    scopes: extra.scopes ?? [], secrets: extra.secrets ?? {},
  } as never);
  return res.data;
}

/** Installs the integration in `org` with the official client; the presented installation. */
export async function installInOrg(api: TestApi, org: TestOrg, name: string) {
  return (await integrationClient(api, org.admin.token).integrations.installIntegration(name, { organization: org.id } as never)).data;
}

export interface IntegrationEvent {
  id: string;
  status: 'pending' | 'success' | 'failed';
  // Payloads are read freely by the tests.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  payload: { type: string } & Record<string, any>;
}

/** The integration's events (newest first) of `type`, as `GET /integrations/{name}/events` lists them. */
export async function listEvents(api: TestApi, org: TestOrg, name: string, type?: string): Promise<IntegrationEvent[]> {
  const list = await api.request('GET', `/integrations/${name}/events`, { token: org.admin.token, query: { limit: 100 } });
  if (list.status !== 200) throw new Error(`GET /integrations/${name}/events: HTTP ${list.status}`);
  return (list.body.items as IntegrationEvent[]).filter((e) => type === undefined || e.payload.type === type);
}

/**
 * Polls the integration-events queue (and the queues of `alsoPoll`, e.g. `git` for a sync
 * that emits the event) until the newest event of `type` whose payload passes `where` is no
 * longer pending; its detail (`{event, trace: {logs}}`).
 */
export async function settled(
  api: TestApi, org: TestOrg, name: string, type: string,
  options: { where?: (payload: IntegrationEvent['payload']) => boolean; alsoPoll?: QueueName[] } = {},
) {
  for (let i = 0; i < 40; i++) {
    const event = (await listEvents(api, org, name, type)).find((e) => options.where?.(e.payload) ?? true);
    if (event && event.status !== 'pending') {
      const detail = await api.request('GET', `/integrations/${name}/events/${event.id}`, { token: org.admin.token });
      return detail.body;
    }
    for (const queue of options.alsoPoll ?? []) await pollOnce(queue, 0);
    await pollOnce('integration-events', 1);
  }
  throw new Error(`${type} event of ${name} never settled`);
}

/** The messages of an event detail's trace, in order. */
export const messages = (detail: { trace: { logs: { message: string }[] } }) => detail.trace.logs.map((l) => l.message);
