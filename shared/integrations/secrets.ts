import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { derivedKey } from '../secrets/keys.ts';

/**
 * An integration's secrets reach its script at run time (`environment.secrets`), so their
 * values are kept sealed (AES-256-GCM, the service's credential-sealing key) next to their
 * hashes; the additional data binds the sealed value to one publication of one integration.
 */
const aad = (name: string, createdAt: string) => Buffer.from(`integration-secrets\n${name}\n${createdAt}`);

export async function sealSecrets(secrets: Record<string, string>, name: string, createdAt: string): Promise<string> {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', await derivedKey('credential-sealing'), iv);
  cipher.setAAD(aad(name, createdAt));
  const body = Buffer.concat([cipher.update(JSON.stringify(secrets), 'utf8'), cipher.final()]);
  return [iv, cipher.getAuthTag(), body].map((part) => part.toString('base64url')).join('.');
}

/** The secrets, or {} when there are none or they cannot be opened (other key, tampered record). */
export async function openSecrets(sealed: string | undefined, name: string, createdAt: string): Promise<Record<string, string>> {
  if (!sealed) return {};
  try {
    const [iv, tag, body] = sealed.split('.').map((part) => Buffer.from(part, 'base64url'));
    const decipher = createDecipheriv('aes-256-gcm', await derivedKey('credential-sealing'), iv!);
    decipher.setAAD(aad(name, createdAt));
    decipher.setAuthTag(tag!);
    return JSON.parse(Buffer.concat([decipher.update(body!), decipher.final()]).toString('utf8')) as Record<string, string>;
  } catch {
    return {};
  }
}
