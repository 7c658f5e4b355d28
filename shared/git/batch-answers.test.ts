import { describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { BatchAnswers, type BatchAnswer } from './batch-answers.ts';

const oid = (n: number) => n.toString(16).padStart(40, '0');

/** What `git cat-file --batch` writes for these objects (bytes that hold newlines and spaces too). */
function output(objects: (Buffer | 'missing' | 'ambiguous')[]): Buffer {
  return Buffer.concat(objects.map((object, n) => (typeof object === 'string'
    ? Buffer.from(`${oid(n)} ${object}\n`)
    : Buffer.concat([Buffer.from(`${oid(n)} blob ${object.length}\n`), object, Buffer.from('\n')]))));
}

function parse(chunks: Buffer[]): BatchAnswer[] {
  const answers: BatchAnswer[] = [];
  const parser = new BatchAnswers((answer) => answers.push(answer));
  for (const chunk of chunks) parser.push(chunk);
  return answers;
}

const expected = (objects: (Buffer | 'missing' | 'ambiguous')[]) =>
  objects.map((object, n) => (typeof object === 'string' ? { unavailable: object } : { oid: oid(n), type: 'blob', bytes: object }));

describe('git cat-file --batch answers', () => {
  const objects: (Buffer | 'missing' | 'ambiguous')[] = [
    Buffer.alloc(0), Buffer.from('\n'), Buffer.from('a b\nc 12\n'), 'missing', randomBytes(300), 'ambiguous', Buffer.from(' '),
  ];
  const stream = output(objects);

  it('reads every object whatever the chunks: split at every byte, and byte by byte', () => {
    for (let cut = 0; cut <= stream.length; cut++) {
      expect(parse([stream.subarray(0, cut), stream.subarray(cut)]), `cut at ${cut}`).toEqual(expected(objects));
    }
    expect(parse([...stream].map((byte) => Buffer.from([byte])))).toEqual(expected(objects));
  });

  it('copies a large object once into a buffer of its own size, not a view of a joined answer', () => {
    const large = randomBytes(2 * 1024 * 1024);
    const bytes = output([large, Buffer.from('next')]);
    // Pipe-sized chunks, the large object's bytes spread over 33 of them.
    const chunks: Buffer[] = [];
    for (let from = 0; from < bytes.length; from += 65_536) chunks.push(bytes.subarray(from, from + 65_536));
    const [first, second] = parse(chunks) as { type: string; bytes: Buffer }[];
    expect(first!.bytes.equals(large)).toBe(true);
    expect(first!.bytes.buffer.byteLength).toBe(large.length);
    expect(second!.bytes.toString()).toBe('next');
  });
});
