/**
 * Credentials written into a URL (`https://user:token@host/spec.yaml`). They are split
 * off before the URL is stored or shown, and kept sealed (AES-256-GCM, key derived for
 * 'credential-sealing', the record's identity as additional data so a sealed value cannot
 * be moved to another record); only the fetcher opens them again.
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { derivedKey } from '../secrets/keys.ts';

export interface UrlCredentials {
  username: string;
  password: string;
}

/** The URL without credentials, and the credentials it carried (percent-decoded). */
export function splitCredentials(raw: string): { url: string; credentials?: UrlCredentials } {
  const url = new URL(raw);
  if (!url.username && !url.password) return { url: raw };
  const credentials = { username: decodeURIComponent(url.username), password: decodeURIComponent(url.password) };
  url.username = '';
  url.password = '';
  return { url: url.toString(), credentials };
}

/** The URL with credentials written back in (what the egress guard turns into Basic auth). */
export function withCredentials(raw: string, credentials: UrlCredentials | undefined): string {
  if (!credentials) return raw;
  const url = new URL(raw);
  url.username = credentials.username;
  url.password = credentials.password;
  return url.toString();
}

/** A URL for display: credentials removed, the text unchanged when it is not a URL. */
export function withoutCredentials(raw: string): string {
  try {
    return splitCredentials(raw).url;
  } catch {
    return raw;
  }
}

export async function sealCredentials(credentials: UrlCredentials, recordId: string): Promise<string> {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', await derivedKey('credential-sealing'), iv);
  cipher.setAAD(Buffer.from(recordId));
  const body = Buffer.concat([cipher.update(JSON.stringify(credentials), 'utf8'), cipher.final()]);
  return [iv, cipher.getAuthTag(), body].map((part) => part.toString('base64url')).join('.');
}

/** The credentials, or undefined when they cannot be opened (other key, tampered record). */
export async function openCredentials(sealed: string, recordId: string): Promise<UrlCredentials | undefined> {
  const key = await derivedKey('credential-sealing');
  try {
    const [iv, tag, body] = sealed.split('.').map((part) => Buffer.from(part, 'base64url'));
    const decipher = createDecipheriv('aes-256-gcm', key, iv!);
    decipher.setAAD(Buffer.from(recordId));
    decipher.setAuthTag(tag!);
    const value = JSON.parse(Buffer.concat([decipher.update(body!), decipher.final()]).toString('utf8')) as UrlCredentials;
    return typeof value.username === 'string' && typeof value.password === 'string' ? value : undefined;
  } catch {
    return undefined;
  }
}
