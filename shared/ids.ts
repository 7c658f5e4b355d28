import { randomBytes, hash } from 'node:crypto';

const alphabet = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

const ID_LENGTH = 20;
const GENERATED_ID = new RegExp(`^[${alphabet}]{${ID_LENGTH}}$`);

/** Whether `value` has the shape of a randomId() of the default length (page, space, ... ids). */
export const isGeneratedId = (value: string): boolean => GENERATED_ID.test(value);

/** Random base62 string; 20 characters carry ~119 bits. */
export function randomId(length = ID_LENGTH): string {
  const bytes = randomBytes(length * 2);
  let out = '';
  for (let i = 0; out.length < length && i < bytes.length; i++) {
    const b = bytes[i]!;
    // 248 = 62 * 4: reject the tail to keep the distribution uniform.
    if (b < 248) out += alphabet[b % 62];
  }
  return out.length === length ? out : randomId(length);
}

/**
 * SHA-256 as hex, of text (UTF-8) or bytes (blob addresses, token hashes): one-shot
 * `crypto.hash`, no Hash object per call (every authenticated request hashes its token).
 */
export function sha256Hex(value: string | Uint8Array): string {
  return hash('sha256', value, 'hex');
}
