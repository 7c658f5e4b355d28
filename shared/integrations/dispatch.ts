import { nowIso } from '../clock.ts';
import { egressFetch } from '../net/egress.ts';
import { isEgressError } from '../net/egress-error.ts';
import { ConditionFailed, NotFound } from '../db/errors.ts';
import {
  eventCreatedAt, installationEntity, integrationEntity, integrationEventEntity,
  type InstallationItem, type IntegrationEventItem, type IntegrationEventLog, type IntegrationItem,
} from '../db/entities/integration.ts';
import { webhookHeaders, webhookSigningSecret } from './signature.ts';
import { runEvent } from './script-request.ts';
import type { EventPayload } from './events.ts';
import type { RetryLater } from '../jobs/queue-handler.ts';
import { run } from '../db/writes.ts';
import { MAX_RECEIVE_COUNT } from '../jobs/redrive.ts';

export const DISPATCH_TIMEOUT_MS = 10_000;
/** Attempts per event: the queue's receive limit, so the last failure goes to the DLQ. */
export const MAX_DELIVERY_ATTEMPTS = MAX_RECEIVE_COUNT;

/**
 * A delivery that may succeed later: the message is left to SQS, which redelivers it after
 * `retryAfterSeconds` (shared/jobs/queue-handler.ts): INTEGRATION_RETRY_BASE_SECONDS (30)
 * times 2^(attempt - 1), so 30 s then 60 s by default.
 */
export class DeliveryRetry extends Error implements RetryLater {
  override name = 'DeliveryRetry';
  readonly retryAfterSeconds: number;

  constructor(message: string, retryAfterSeconds: number) {
    super(message);
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

export function retryDelaySeconds(attempt: number): number {
  const raw = Number(process.env.INTEGRATION_RETRY_BASE_SECONDS);
  const base = process.env.INTEGRATION_RETRY_BASE_SECONDS !== undefined && Number.isFinite(raw) && raw >= 0 ? raw : 30;
  return base * 2 ** (attempt - 1);
}

type Outcome = { status: 'success' | 'failed' | 'retry'; logs: IntegrationEventLog[] };

/**
 * Delivers one integration event (the `integration-events` worker):
 * - in development mode (a tunnel, and `all` or an installation of the owning organization)
 *   the payload is POSTed to the tunnel, signed per Standard Webhooks (signature.ts);
 * - otherwise the published script runs it (runtime.ts), with an installation token;
 * - without either, the event is recorded as delivered.
 * Each attempt's logs (the script's console lines included) are appended to the event's
 * trace. A script stopped by a limit, or answering 4xx, fails for good; a network error,
 * a 5xx or a crash is retried (MAX_DELIVERY_ATTEMPTS, then `failed` and the DLQ). A
 * redelivered message of a finished event is dropped.
 */
export async function dispatchIntegrationEvent(integrationName: string, eventId: string): Promise<void> {
  const createdAt = eventCreatedAt(eventId);
  if (!createdAt) return;
  const key = { name: integrationName, createdAt, eventId };
  const [event, integration] = await Promise.all([
    integrationEventEntity.get(key, { consistent: true }),
    integrationEntity.get({ name: integrationName }, { consistent: true }),
  ]);
  if (!event || event.status !== 'pending') return; // unpublished meanwhile, or already done
  const attempts = (event.attempts ?? 0) + 1;
  const outcome = integration ? await deliver(integration, event) : { status: 'failed' as const, logs: [log('Integration no longer exists', 'error')] };
  const final = outcome.status === 'retry' && attempts >= MAX_DELIVERY_ATTEMPTS ? 'failed' : outcome.status;
  // The last failure is thrown too: SQS's receive count reaches maxReceiveCount and the message goes to the DLQ.
  const logs = [...event.logs, ...outcome.logs];
  if (outcome.status === 'retry') logs.push(log(final === 'failed' ? `Giving up after ${attempts} attempts` : `Attempt ${attempts} failed; retrying`, final === 'failed' ? 'error' : 'info'));
  try {
    await run(integrationEventEntity.update(key, { set: { status: final === 'retry' ? 'pending' : final, logs, attempts } }));
  } catch (error) {
    if (!(error instanceof ConditionFailed || error instanceof NotFound)) throw error; // unpublished meanwhile
    return;
  }
  if (outcome.status === 'retry') throw new DeliveryRetry(`integration event ${eventId}: attempt ${attempts} failed`, retryDelaySeconds(attempts));
}

const log = (message: string, level: IntegrationEventLog['level'] = 'debug'): IntegrationEventLog => ({ message, timestamp: nowIso(), level });

async function deliver(integration: IntegrationItem, event: IntegrationEventItem): Promise<Outcome> {
  const installation = await installationEntity.get({ name: integration.name, installationId: event.installationId }, { consistent: true });
  if (integration.devTunnelUrl && (integration.devForwardAll === true || installation?.orgId === integration.ownerOrgId)) {
    return toTunnel(integration, integration.devTunnelUrl, event);
  }
  if (integration.scriptBlob) return toScript({ ...integration, scriptBlob: integration.scriptBlob }, installation, event);
  return {
    status: 'success',
    logs: [log(integration.devTunnelUrl
      ? 'Development tunnel forwards only the owning organization\'s events (all: false) and the integration has no script: event recorded as delivered'
      : 'The integration has no script and no development tunnel: event recorded as delivered')],
  };
}

async function toTunnel(integration: IntegrationItem, tunnelUrl: string, event: IntegrationEventItem): Promise<Outcome> {
  const body = JSON.stringify(event.payload);
  // The real time, not the service clock (tests move that): receivers check it against theirs.
  const signed = webhookHeaders(await webhookSigningSecret(integration), event.id, body, new Date());
  try {
    // Through the egress guard: checked, pinned address; no redirects; the answer is not read.
    const res = await egressFetch({
      url: tunnelUrl, label: 'tunnelUrl', timeoutMs: DISPATCH_TIMEOUT_MS, maxBytes: 64 * 1024, maxRedirects: 0,
      method: 'POST', headers: { 'content-type': 'application/json', ...signed }, body,
    });
    res.cancel();
    const ok = res.status >= 200 && res.status < 300;
    return { status: ok ? 'success' : res.status >= 500 ? 'retry' : 'failed', logs: [log(`Delivered to development tunnel: HTTP ${res.status}`, ok ? 'debug' : 'error')] };
  } catch (error) {
    // A destination the egress guard refuses stays refused: fail at once, as a refused Git
    // remote does. Network failures and timeouts may pass: those are retried.
    const refused = isEgressError(error) && (error.failure === 'forbidden' || error.failure === 'redirects' || error.failure === 'too-large');
    return { status: refused ? 'failed' : 'retry', logs: [log(`Delivery to development tunnel failed: ${(error as Error).message}`, 'error')] };
  }
}

async function toScript(integration: IntegrationItem & { scriptBlob: string }, installation: InstallationItem | undefined, event: IntegrationEventItem): Promise<Outcome> {
  const run = await runEvent(integration, installation, event.payload as EventPayload);
  const logs = [...run.logs];
  if (run.failure) {
    logs.push(log(run.failure.message, 'error'));
    // Limits stop the same script the same way every time: no retry. Crashes may be transient.
    return { status: run.failure.reason === 'crash' ? 'retry' : 'failed', logs };
  }
  const status = run.response!.status;
  const ok = status >= 200 && status < 300;
  logs.push(log(`Script answered HTTP ${status}`, ok ? 'debug' : 'error'));
  return { status: ok ? 'success' : status >= 500 ? 'retry' : 'failed', logs };
}
