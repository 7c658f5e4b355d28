import { randomBytes, hash } from 'node:crypto';

const alphabet = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** Random base62 string; 20 characters carry ~119 bits. */
export function randomId(length = 20): string {
  const bytes = randomBytes(length * 2);
  let out = '';
  for (let i = 0; out.length < length && i < bytes.length; i++) {
    const b = bytes[i]!;
    // 248 = 62 * 4: reject the tail to keep the distribution uniform.
    if (b < 248) out += alphabet[b % 62];
  }
  return out.length === length ? out : randomId(length);
}

/** One-shot `crypto.hash` (every authenticated request hashes its token): no Hash object per call. */
export function sha256Hex(value: string): string {
  return hash('sha256', value, 'hex');
}
