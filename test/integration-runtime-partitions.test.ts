import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newOrg, useTestApi, type TestOrg } from './support/api.ts';
import { installInOrg, listEvents, publishScript, uniqueName } from './support/integrations.ts';
import { GUIDE_MARKDOWN, publishedSite, spaceWithPages } from './support/reader-site.ts';
import { currentRecording, matchesLike, recording, watchTableKeys, type TouchedKey } from './support/table-keys.ts';
import { buildFixture } from './fixtures/integrations/build.ts';
import { serveLocal } from '../shared/local/http-server.ts';
import { pollOnce } from '../shared/local/queue-poller.ts';
import { randomId } from '../shared/ids.ts';
import { webhookHeaders } from '../shared/integrations/signature.ts';
import { renderSigningSecret } from '../shared/reader/integration-blocks.ts';
import { RATE_LIMIT_KEY_PREFIX } from '../shared/db/entities/rate-limit.ts';
import { app as runtimeApp } from '../functions/integration-runtime/app.ts';
import { startingWith, TABLE_READ_ACTIONS, TABLE_WRITE_ACTIONS, workerAccess } from '../infra/constructs/access.ts';
import { KEY_ROOTS, keyDerivations, type KeyPurpose } from '../shared/secrets/keys.ts';

/**
 * The integration runtime runs third-party scripts, so its role may touch only the table
 * partitions infra/constructs/access.ts declares for it (dynamodb:LeadingKeys). The emulator
 * does not enforce IAM: this runs the runtime's real flows — its app served alone over HTTP,
 * as API Gateway routes to its Lambda, and its queue worker — records the partition key of
 * every DynamoDB request they make (test/support/table-keys.ts), and checks each against the
 * declaration, which must hold all of them and nothing they never use.
 */
const api = useTestApi();
const access = workerAccess['integration-events'];
const partitions = access.partitions!;
const touched: TouchedKey[] = [];
/** The keys the same flows derive (shared/secrets/keys.ts publishes each derivation). */
const derivedPurposes = new Set<KeyPurpose>();
const onDerivation = (message: unknown) => {
  if (currentRecording() === touched) derivedPurposes.add((message as { purpose: KeyPurpose }).purpose);
};

let runtime: { url: string; close(): Promise<void> };
let org: TestOrg;
let site: { id: string };
let spaceId: string;
let helloInstallation: string;
const hello = uniqueName('iam-hello');
const widget = uniqueName('iam-widget');
const blocks = uniqueName('iam-blocks');

beforeAll(async () => {
  watchTableKeys();
  keyDerivations.subscribe(onDerivation);
  // The runtime's app alone, every request recorded: what its Lambda serves (functions/integration-runtime/handler.ts).
  const { server, address } = await serveLocal({ fetch: (request, env) => recording(touched, () => runtimeApp.fetch(request, env)), port: 0, hostname: '127.0.0.1' });
  runtime = { url: `http://127.0.0.1:${address.port}`, close: () => new Promise((resolve) => server.close(() => resolve())) };
  org = await newOrg();
  const space = await spaceWithPages(api, org, 'Guide', [GUIDE_MARKDOWN]);
  spaceId = space.id;
  site = await publishedSite(api, org, [space.id]);
  await publishScript(api, org, hello, await buildFixture('hello'), { scopes: ['space:metadata:read'], secrets: { API_KEY: 'sealed for the script' } });
  await publishScript(api, org, widget, await buildFixture('widget'), { scopes: ['site:script:inject'] });
  await publishScript(api, org, blocks, await buildFixture('blocks'));
  helloInstallation = (await installInOrg(api, org, hello)).id;
  for (const name of [widget, blocks]) await installInOrg(api, org, name);
}, 180_000);
afterAll(async () => {
  keyDerivations.unsubscribe(onDerivation);
  await runtime?.close();
});

/** Delivers the queued events with the runtime's worker (recorded) until none of `names` has one pending. */
async function deliverEvents(names: string[]) {
  for (let i = 0; i < 40; i++) {
    const events = (await Promise.all(names.map((name) => listEvents(api, org, name)))).flat();
    if (events.length >= names.length && events.every((e) => e.status !== 'pending')) return events;
    await recording(touched, () => pollOnce('integration-events', 1));
  }
  throw new Error('integration events never settled');
}

const isRead = (key: TouchedKey) => key.resource === 'table' && (TABLE_READ_ACTIONS as readonly string[]).includes(`dynamodb:${key.action}`);
const isWrite = (key: TouchedKey) => key.resource === 'table' && (TABLE_WRITE_ACTIONS as readonly string[]).includes(`dynamodb:${key.action}`);

/** The patterns the declaration grants for what a request did, as grantAccess turns them into IAM statements. */
function granted(key: TouchedKey): readonly string[] {
  if (key.resource !== 'table') return key.action === 'Query' ? partitions.indexes[key.resource] ?? [] : [];
  if (isRead(key)) return partitions.read;
  if (isWrite(key)) {
    // Rate-limit counters: UpdateItem on RATE# partitions (its own statement).
    return [...partitions.write, ...(access.rateLimitCounters && key.action === 'UpdateItem' ? [startingWith(RATE_LIMIT_KEY_PREFIX)] : [])];
  }
  return [];
}

describe('the integration runtime\'s table access', () => {
  it('stays inside the partitions its IAM role is limited to, and the declaration names none it never uses', { timeout: 180_000 }, async () => {
    // Events: installation_setup of each installation, run in workerd with a minted installation token.
    const events = await deliverEvents([hello, widget, blocks]);
    expect(events.filter((e) => e.payload.type === 'installation_setup')).toHaveLength(3);

    // Public endpoints, of the integration and of an installation (rate-limited per address).
    const own = await fetch(`${runtime.url}/v1/integrations/${hello}/public/hook`, { method: 'POST', body: 'ping' });
    expect(own.status).toBe(200);
    expect((await own.json()).integration).toBe(hello);
    const viaInstallation = await fetch(`${runtime.url}/v1/integrations/${hello}/public/installations/${helloInstallation}/hook`);
    expect(viaInstallation.status).toBe(200);
    expect((await viaInstallation.json()).installation).toBe(helloInstallation);

    // A published site's script: asked of the integration, then from the cache.
    for (let i = 0; i < 2; i++) {
      const script = await fetch(`${runtime.url}/s/${site.id}/~integrations/${widget}/script.js?v=1`);
      expect(script.status).toBe(200);
      expect(await script.text()).toContain(`data-widget-`);
    }

    // An integration block's render, signed as the reader signs it.
    const body = JSON.stringify({ orgId: org.id, spaceId, block: 'card', props: { label: 'Checked' } });
    const render = await fetch(`${runtime.url}/s/${site.id}/~integrations/${blocks}/render`, {
      method: 'POST', body,
      headers: { 'content-type': 'application/json', ...webhookHeaders(await renderSigningSecret(), `render_${randomId(16)}`, body, new Date()) },
    });
    expect(render.status).toBe(200);
    expect(await render.text()).toContain(`Checked for ${blocks}`);

    // Every key matches a pattern its statement grants.
    expect(touched.length).toBeGreaterThan(0);
    const outside = touched.filter((key) => key.pk === undefined || !granted(key).some((pattern) => matchesLike(pattern, key.pk!)));
    expect(outside).toEqual([]);
    // And every declared pattern is used: the declaration is no wider than the code.
    const used = (patterns: readonly string[], keys: TouchedKey[]) => patterns.filter((p) => keys.some((k) => k.pk !== undefined && matchesLike(p, k.pk)));
    expect(used(partitions.read, touched.filter(isRead))).toEqual(partitions.read);
    expect(used(partitions.write, touched.filter(isWrite))).toEqual(partitions.write);
    for (const [index, patterns] of Object.entries(partitions.indexes)) {
      expect(used(patterns!, touched.filter((k) => k.resource === index)), index).toEqual(patterns);
    }
  });
});

describe('the integration runtime\'s keys', () => {
  it('derives only keys of the secrets its function is given: the integration secret, none of the service\'s own', () => {
    // Runs after the flows above (same file, in order): what they derived.
    expect([...derivedPurposes].sort()).toEqual(['integration-block-render', 'integration-secret-sealing', 'webhook-signing']);
    expect(access.secrets).toEqual(['integrations']);
    expect([...derivedPurposes].filter((purpose) => !access.secrets.includes(KEY_ROOTS[purpose]))).toEqual([]);
  });
});
