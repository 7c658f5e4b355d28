import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { derivedKey } from '../../secrets/keys.ts';
import { randomId, sha256Hex } from '../../ids.ts';

/**
 * Share link secrets (docs/decisions.md, "Sites"): 22 base62 characters (~131 bits).
 * The table keeps sha256(secret) to check a reader's key, and the secret sealed with
 * AES-256-GCM under a key derived (HKDF, its own label) from the service's signing
 * secret, so admins can list working links while a copy of the table alone cannot.
 */
export const SHARE_SECRET_LENGTH = 22;

export function newShareSecret(): string {
  return randomId(SHARE_SECRET_LENGTH);
}

export function hashShareSecret(secret: string): string {
  return sha256Hex(`share-link:${secret}`);
}

const sealingKey = () => derivedKey('share-link-sealing');

export async function sealShareSecret(secret: string, shareLinkId: string): Promise<string> {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', await sealingKey(), iv);
  // The link id is authenticated data: a sealed secret cannot be moved to another link.
  cipher.setAAD(Buffer.from(shareLinkId));
  const body = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
  return [iv, cipher.getAuthTag(), body].map((b) => b.toString('base64url')).join('.');
}

/** The secret, or undefined when it cannot be opened (other key, tampered record). */
export async function openShareSecret(sealed: string, shareLinkId: string): Promise<string | undefined> {
  const key = await sealingKey();
  try {
    const [iv, tag, body] = sealed.split('.').map((p) => Buffer.from(p, 'base64url'));
    const decipher = createDecipheriv('aes-256-gcm', key, iv!);
    decipher.setAAD(Buffer.from(shareLinkId));
    decipher.setAuthTag(tag!);
    return Buffer.concat([decipher.update(body!), decipher.final()]).toString('utf8');
  } catch {
    return undefined;
  }
}
