import { createHash } from 'node:crypto';
import { deflateSync } from 'node:zlib';

const crcTable = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

/**
 * A valid RGB PNG of `width` x `height` (pixels filled from `seed`), for fixture assets. With
 * `unique`, the pixels come from its hash instead: blobs are content-addressed and the table and
 * bucket are shared by the whole test run, so a fixture that must own its blob names it.
 */
export function pngFile(width: number, height: number, seed = 0, unique?: string): Buffer {
  const crc = (buf: Buffer) => {
    let c = 0xffffffff;
    for (const b of buf) c = crcTable[(c ^ b) & 0xff]! ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type: string, data: Buffer) => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type), data]);
    const sum = Buffer.alloc(4);
    sum.writeUInt32BE(crc(body));
    return Buffer.concat([len, body, sum]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8;
  ihdr[9] = 2;
  // Each row: filter byte 0, then RGB pixels.
  const pixels = Buffer.alloc(height * (1 + 3 * width));
  const noise = unique === undefined ? undefined : createHash('sha256').update(unique).digest();
  if (noise) for (let i = 0; i < pixels.length; i++) if (i % (1 + 3 * width)) pixels[i] = noise[i % noise.length]!;
  if (seed && !noise) for (let i = 0; i < pixels.length; i++) if (i % (1 + 3 * width)) pixels[i] = (i * 31 + seed * 17) & 0xff;
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr), chunk('IDAT', deflateSync(pixels)), chunk('IEND', Buffer.alloc(0)),
  ]);
}
