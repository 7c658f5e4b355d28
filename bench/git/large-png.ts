import { crc32 } from 'node:zlib';
import { pngFile } from '../../test/support/git-server.ts';

/**
 * A valid PNG of about `bytes` bytes that does not compress (noise, like a photo or a busy
 * screenshot): the "large images" of real documentation repositories. A small valid PNG
 * from the test fixtures gets a private ancillary chunk of pseudo-random bytes before IEND,
 * so every decoder (and image-size) still reads its header and dimensions.
 */
export function largePng(bytes: number, seed: number): Buffer {
  const base = pngFile(64, 48, seed + 1);
  const noise = Buffer.alloc(Math.max(0, bytes - base.length - 12));
  let x = (seed * 2654435761) >>> 0 || 1;
  for (let i = 0; i < noise.length; i += 4) {
    x ^= x << 13; x >>>= 0; x ^= x >>> 17; x ^= x << 5; x >>>= 0;
    noise.writeUInt32LE(x, Math.min(i, noise.length - 4));
  }
  const iend = base.length - 12;
  return Buffer.concat([base.subarray(0, iend), chunk('noIs', noise), base.subarray(iend)]);
}

function chunk(type: string, data: Buffer): Buffer {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  // CRC of type + data.
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([Buffer.from(type), data])));
  return Buffer.concat([len, Buffer.from(type), data, crc]);
}
