import { hkdfSync } from 'node:crypto';
import { serviceSecret } from './service-secret.ts';

/**
 * One key per purpose, derived from the service secret with HKDF-SHA256 (its own label,
 * and a context such as a site id where each resource needs a key of its own). A key for
 * one purpose reveals nothing about another, and a copy of the table holds none of them.
 */
export type KeyPurpose =
  /** HS256 key of the visitor-claims JWT returned by ping. */
  | 'visitor-claims'
  /** HS256 key a visitor-auth site verifies visitor tokens with (context: site id). */
  | 'site-visitor-key'
  /** AES-256-GCM key sealing share-link secrets. */
  | 'share-link-sealing'
  /** AES-256-GCM key sealing credentials kept with stored URLs (OpenAPI sources). */
  | 'credential-sealing'
  /** HMAC key authenticating pagination cursors. */
  | 'cursor'
  /** Standard Webhooks signing secret of an integration (context: integration name). */
  | 'webhook-signing'
  /** HMAC key of reader cookies and other short-lived tokens of the service itself. */
  | 'session'
  /** HMAC key turning an SSO email into the id of the user it creates (concurrent first logins make one user). */
  | 'sso-user-id';

// Per loaded secret: a reset (tests) loads a new Buffer and so starts a new cache.
const derived = new WeakMap<Buffer, Map<string, Buffer>>();

export async function derivedKey(purpose: KeyPurpose, context = ''): Promise<Buffer> {
  const secret = await serviceSecret();
  let keys = derived.get(secret);
  if (!keys) derived.set(secret, (keys = new Map()));
  const id = `${purpose}\n${context}`;
  let key = keys.get(id);
  if (!key) keys.set(id, (key = Buffer.from(hkdfSync('sha256', secret, 'docs-service', `${purpose}-v1:${context}`, 32))));
  return key;
}
