import { hkdfSync } from 'node:crypto';
import { channel } from 'node:diagnostics_channel';
import { serviceSecret } from './service-secret.ts';
import { integrationSecret } from './integration-secret.ts';
import type { SecretRoot } from './roots.ts';

/**
 * One key per purpose, derived with HKDF-SHA256 (its own label, and a context such as a site
 * id where each resource needs a key of its own) from one of two secrets. A key for one
 * purpose reveals nothing about another, and a copy of the table holds none of them.
 * - `service`: the service secret (service-secret.ts), the keys of the service itself.
 * - `integrations`: the integration secret (integration-secret.ts), the keys the integration
 *   runtime needs, and nothing else: the runtime runs third-party scripts and is given this
 *   secret alone (infra/constructs/access.ts), so it cannot sign visitor tokens, reader
 *   cookies or cursors, or open share links.
 */
export const KEY_ROOTS = {
  /** HS256 key of the visitor-claims JWT returned by ping. */
  'visitor-claims': 'service',
  /** HS256 key a visitor-auth site verifies visitor tokens with (context: site id). */
  'site-visitor-key': 'service',
  /** AES-256-GCM key sealing share-link secrets. */
  'share-link-sealing': 'service',
  /** AES-256-GCM key sealing credentials kept with stored URLs (OpenAPI sources); integration secrets sealed before 2026-11-28 too. */
  'credential-sealing': 'service',
  /** HMAC key authenticating pagination cursors. */
  cursor: 'service',
  /** HMAC key of reader cookies and other short-lived tokens of the service itself. */
  session: 'service',
  /** HMAC key turning an SSO email into the id of the user it creates (concurrent first logins make one user). */
  'sso-user-id': 'service',
  /** Standard Webhooks signing secret of an integration (context: integration name and publication). */
  'webhook-signing': 'integrations',
  /** AES-256-GCM key sealing an integration's secrets, opened by the runtime for its script. */
  'integration-secret-sealing': 'integrations',
  /** Standard Webhooks secret of the reader's signed render calls to the runtime. */
  'integration-block-render': 'integrations',

} as const satisfies Record<string, SecretRoot>;

export type KeyPurpose = keyof typeof KEY_ROOTS;

/** Every derivation is published here (purpose and root; never a key), for tests that check which keys a function's flows need. */
export const keyDerivations = channel('docs-service:key-derivation');

const roots: Record<SecretRoot, () => Promise<Buffer>> = { service: serviceSecret, integrations: integrationSecret };
// Per loaded secret: a reset (tests) loads a new Buffer and so starts a new cache.
const derived = new WeakMap<Buffer, Map<string, Buffer>>();

export async function derivedKey(purpose: KeyPurpose, context = ''): Promise<Buffer> {
  const root = KEY_ROOTS[purpose];
  if (keyDerivations.hasSubscribers) keyDerivations.publish({ purpose, root });
  const secret = await roots[root]();
  let keys = derived.get(secret);
  if (!keys) derived.set(secret, (keys = new Map()));
  const id = `${purpose}\n${context}`;
  let key = keys.get(id);
  if (!key) keys.set(id, (key = Buffer.from(hkdfSync('sha256', secret, 'docs-service', `${purpose}-v1:${context}`, 32))));
  return key;
}
