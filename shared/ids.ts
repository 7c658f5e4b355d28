import { hash, randomFillSync } from 'node:crypto';

const alphabet = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

const ID_LENGTH = 20;
const GENERATED_ID = new RegExp(`^[${alphabet}]{${ID_LENGTH}}$`);

/** Whether `value` has the shape of a randomId() of the default length (page, space, ... ids). */
export const isGeneratedId = (value: string): boolean => GENERATED_ID.test(value);

/**
 * Bytes of the CSPRNG, drawn a few KB at a time (as node's randomUUID does): one call into
 * OpenSSL per ~200 ids instead of one per id, which cost ~8 µs each (an import of 1,000 pages
 * makes 1,200 ids). Each byte is handed out once.
 */
const pool = Buffer.allocUnsafe(4096);
let poolOffset = pool.length;

function randomByte(): number {
  if (poolOffset === pool.length) {
    randomFillSync(pool);
    poolOffset = 0;
  }
  return pool[poolOffset++]!;
}

/** Random base62 string; 20 characters carry ~119 bits. */
export function randomId(length = ID_LENGTH): string {
  let out = '';
  while (out.length < length) {
    const b = randomByte();
    // 248 = 62 * 4: reject the tail to keep the distribution uniform.
    if (b < 248) out += alphabet[b % 62];
  }
  return out;
}

/**
 * SHA-256 as hex, of text (UTF-8) or bytes (blob addresses, token hashes): one-shot
 * `crypto.hash`, no Hash object per call (every authenticated request hashes its token).
 */
export function sha256Hex(value: string | Uint8Array): string {
  return hash('sha256', value, 'hex');
}
