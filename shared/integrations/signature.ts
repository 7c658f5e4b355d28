import { Webhook } from 'standardwebhooks';
import { derivedKey } from '../secrets/keys.ts';
import type { IntegrationItem } from '../db/entities/integration.ts';

/**
 * Integration event deliveries are signed per the Standard Webhooks specification
 * (https://www.standardwebhooks.com), with the `standardwebhooks` package:
 * - `webhook-id`: the event id, the same on every delivery of one event, so a receiver
 *   that remembers the ids it has processed drops a redelivery or a replay;
 * - `webhook-timestamp`: epoch seconds of this delivery attempt;
 * - `webhook-signature`: `v1,<base64 HMAC-SHA256 of "<id>.<timestamp>.<body>">`.
 * Receivers verify with `new Webhook(secret).verify(body, headers)`, which also refuses a
 * timestamp more than WEBHOOK_TOLERANCE_SECONDS away from their clock (replays of old
 * deliveries, even with an id the receiver has forgotten).
 */
export const WEBHOOK_TOLERANCE_SECONDS = 5 * 60;

/**
 * The integration's signing secret, `whsec_<base64 of 32 bytes>`: derived from the service
 * secret, never stored. The publication time is part of the derivation, so a name that is
 * unpublished and published again (perhaps by another organization) gets a new secret.
 */
export async function webhookSigningSecret(integration: Pick<IntegrationItem, 'name' | 'createdAt'>): Promise<string> {
  const key = await derivedKey('webhook-signing', `${integration.name}\n${integration.createdAt}`);
  return `whsec_${key.toString('base64')}`;
}

/** The three Standard Webhooks headers of one delivery of `body`. */
export function webhookHeaders(secret: string, messageId: string, body: string, sentAt: Date): Record<string, string> {
  return {
    'webhook-id': messageId,
    'webhook-timestamp': String(Math.floor(sentAt.getTime() / 1000)),
    'webhook-signature': new Webhook(secret).sign(messageId, sentAt, body),
  };
}
