import { config } from '../config.ts';
import { getBytesBlob } from '../content/blobs.ts';
import type { InstallationItem, IntegrationItem } from '../db/entities/integration.ts';
import { presentInstallation } from '../presenters/integration.ts';
import { apiLocation } from '../presenters/urls.ts';
import { guardedOutbound } from './outbound.ts';
import { mintInstallationToken } from './installation-token.ts';
import { runScript, type ScriptRun } from './runtime.ts';
import { scriptLimits, type ScriptLimits } from './limits.ts';
import { openSecrets } from './secrets.ts';
import { webhookSigningSecret } from './signature.ts';
import type { EventPayload } from './events.ts';

/**
 * How an event reaches a script, as the public platform sends it and `@gitbook/runtime`'s
 * createIntegration reads it: `POST /v1`, a multipart form of `event` (JSON), `environment`
 * (JSON: API endpoint and tokens, the integration, the installation and the space or site
 * installation, secrets, signing secrets) and, for `fetch` events, `fetch-body`.
 */
const SCRIPT_URL = 'https://integration.invalid/v1';

export async function environmentFor(integration: IntegrationItem, installation: InstallationItem | undefined, payload: EventPayload) {
  const token = installation ? await mintInstallationToken(integration, installation) : undefined;
  const presented = installation ? presentInstallation(installation, integration) : undefined;
  const base = { integration: integration.name, installation: installation?.id, status: 'active', configuration: {}, externalIds: [] };
  return {
    apiEndpoint: config.apiUrl,
    // One token, the installation's: an integration-wide token (no installation) is not minted here.
    apiTokens: { integration: token ?? '', ...(token ? { installation: token } : {}) },
    integration: {
      object: 'integration', name: integration.name, version: integration.version, title: integration.title,
      description: integration.description, scopes: integration.scopes, target: integration.target, visibility: integration.visibility,
      urls: { publicEndpoint: apiLocation(`/integrations/${integration.name}/public`) },
    },
    ...(presented ? { installation: presented } : {}),
    ...(typeof payload.spaceId === 'string' ? { spaceInstallation: { ...base, space: payload.spaceId } } : {}),
    ...(typeof payload.siteId === 'string' ? { siteInstallation: { ...base, site: payload.siteId } } : {}),
    secrets: await openSecrets(integration.sealedSecrets, integration.name, integration.createdAt),
    signingSecrets: { integration: await webhookSigningSecret(integration) },
  };
}

/** Runs `payload` through the integration's script; `fetchBody` for `fetch` events; `limits` tighter than the configured ones. */
export async function runEvent(
  integration: IntegrationItem & { scriptBlob: string },
  installation: InstallationItem | undefined,
  payload: EventPayload,
  fetchBody?: Uint8Array,
  limits: ScriptLimits = scriptLimits(),
): Promise<ScriptRun> {
  const [script, environment] = await Promise.all([
    getBytesBlob(integration.scriptBlob).then((bytes) => Buffer.from(bytes).toString('utf8')),
    environmentFor(integration, installation, payload),
  ]);
  const form = new FormData();
  form.set('event', JSON.stringify(payload));
  form.set('environment', JSON.stringify(environment));
  if (fetchBody) form.set('fetch-body', new Blob([new Uint8Array(fetchBody)]));
  // The multipart body as Node's own Request encodes it.
  const encoded = new Request(SCRIPT_URL, { method: 'POST', body: form });
  return runScript(script, {
    url: SCRIPT_URL, method: 'POST',
    headers: { 'content-type': encoded.headers.get('content-type')! },
    body: new Uint8Array(await encoded.arrayBuffer()),
  }, guardedOutbound(limits.subrequests), limits);
}
