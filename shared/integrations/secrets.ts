import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { derivedKey, type KeyPurpose } from '../secrets/keys.ts';
import { logger } from '../observability/logger.ts';

/**
 * An integration's secrets reach its script at run time (`environment.secrets`), so their
 * values are kept sealed (AES-256-GCM) next to their hashes; the additional data binds the
 * sealed value to one publication of one integration.
 *
 * Sealed with the integration secret's key (`k2.` before the parts): the runtime, given that
 * secret alone, opens them. Values sealed before 2026-11-28 used the service secret's
 * credential-sealing key; they open only where the service secret is (a local run, the
 * integrations API), so in AWS such an integration's script gets no secrets until it is
 * published again (README "Upgrading").
 */
const VERSION = 'k2';
const aad = (name: string, createdAt: string) => Buffer.from(`integration-secrets\n${name}\n${createdAt}`);

export async function sealSecrets(secrets: Record<string, string>, name: string, createdAt: string): Promise<string> {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', await derivedKey('integration-secret-sealing'), iv);
  cipher.setAAD(aad(name, createdAt));
  const body = Buffer.concat([cipher.update(JSON.stringify(secrets), 'utf8'), cipher.final()]);
  return [VERSION, ...[iv, cipher.getAuthTag(), body].map((part) => part.toString('base64url'))].join('.');
}

/** The secrets, or {} when there are none or they cannot be opened (other key, tampered record). */
export async function openSecrets(sealed: string | undefined, name: string, createdAt: string): Promise<Record<string, string>> {
  if (!sealed) return {};
  const parts = sealed.split('.');
  const current = parts[0] === VERSION;
  const purpose: KeyPurpose = current ? 'integration-secret-sealing' : 'credential-sealing';
  try {
    const [iv, tag, body] = (current ? parts.slice(1) : parts).map((part) => Buffer.from(part, 'base64url'));
    const decipher = createDecipheriv('aes-256-gcm', await derivedKey(purpose), iv!);
    decipher.setAAD(aad(name, createdAt));
    decipher.setAuthTag(tag!);
    return JSON.parse(Buffer.concat([decipher.update(body!), decipher.final()]).toString('utf8')) as Record<string, string>;
  } catch (error) {
    if (!current) logger.warn('integration secrets sealed by an earlier version cannot be opened here: publish the integration again', { integration: name, error: (error as Error).message });
    return {};
  }
}
