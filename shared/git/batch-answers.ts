/**
 * The answers of `git cat-file --batch`, parsed from its output as it arrives: for each object
 * asked, in order, `<oid> <type> <size>\n<bytes>\n`, or `<name> missing\n` (or `ambiguous`).
 * An object's bytes are copied once, as they arrive, into a buffer of its size: no joining of
 * chunks, no copy out of a joined answer, nothing held but the object being received.
 */
export type BatchAnswer = { oid: string; type: string; bytes: Buffer } | { unavailable: string };

export class BatchAnswers {
  /** The start of a header line whose end has not arrived yet. */
  private partialHeader: Buffer | undefined;
  /** The object being received: its bytes so far, then the newline after them. */
  private object: { oid: string; type: string; bytes: Buffer; filled: number } | undefined;

  private readonly answer: (answer: BatchAnswer) => void;

  constructor(answer: (answer: BatchAnswer) => void) {
    this.answer = answer;
  }

  push(chunk: Buffer): void {
    let at = 0;
    while (at < chunk.length) {
      const object = this.object;
      if (object) {
        const bytesLeft = object.bytes.length - object.filled;
        if (bytesLeft > 0) {
          const n = Math.min(bytesLeft, chunk.length - at);
          chunk.copy(object.bytes, object.filled, at, at + n);
          object.filled += n;
          at += n;
          continue;
        }
        // The newline after the bytes.
        at++;
        this.object = undefined;
        this.answer({ oid: object.oid, type: object.type, bytes: object.bytes });
        continue;
      }
      const eol = chunk.indexOf(10, at);
      if (eol < 0) {
        const rest = chunk.subarray(at);
        this.partialHeader = this.partialHeader ? Buffer.concat([this.partialHeader, rest]) : Buffer.from(rest);
        return;
      }
      const line = chunk.subarray(at, eol);
      const header = (this.partialHeader ? Buffer.concat([this.partialHeader, line]) : line).toString('latin1');
      this.partialHeader = undefined;
      at = eol + 1;
      const [oid, type, size] = header.split(' ');
      if (!/^\d+$/.test(size ?? '')) this.answer({ unavailable: type ?? 'missing' });
      else this.object = { oid: oid!, type: type!, bytes: Buffer.allocUnsafe(Number(size)), filled: 0 };
    }
  }
}
