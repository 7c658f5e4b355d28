import { createHash, createHmac, createSecretKey, type Hash, type Hmac } from 'node:crypto';

/** What the SDK hashes and keys with (@smithy/types' SourceData). */
type SourceData = string | ArrayBuffer | ArrayBufferView;

/**
 * The SHA-256 every AWS SDK client of the service signs with (the clients' `sha256` option,
 * set by service-client.ts): node:crypto as the SDK's own, except that an HMAC key given as
 * bytes reaches createHmac as a KeyObject. Node 24's createHmac asks isKeyObject() of a
 * byte key, which throws and catches inside Node: ~14 µs a call against ~5 µs through
 * createSecretKey (issue 17). SigV4 makes that call once per request (the signature, keyed
 * by the signer's cached signing key), so every DynamoDB, S3 and SQS call paid it.
 */
export class KeyObjectSha256 {
  readonly digestLength = 32;
  /** As the SDK's: no key, or an empty string, is a plain hash. */
  private readonly secret: SourceData | undefined;
  private hash: Hash | Hmac;

  constructor(secret?: SourceData) {
    this.secret = secret === '' ? undefined : secret;
    this.hash = this.start();
  }

  update(data: SourceData, encoding?: 'utf8' | 'ascii' | 'latin1'): void {
    if (typeof data === 'string') this.hash.update(data, encoding ?? 'utf8');
    else this.hash.update(bytesOf(data));
  }

  /** An HMAC digests once; a plain hash may be digested again after more updates (a copy is digested), as the SDK's. */
  async digest(): Promise<Uint8Array> {
    const digest = this.secret === undefined ? (this.hash as Hash).copy().digest() : this.hash.digest();
    return new Uint8Array(digest.buffer, digest.byteOffset, digest.byteLength);
  }

  reset(): void {
    this.hash = this.start();
  }

  private start(): Hash | Hmac {
    const secret = this.secret;
    if (secret === undefined) return createHash('sha256');
    // Strings take Node's fast path as they are; an empty key is no KeyObject (HMAC allows it).
    if (typeof secret === 'string') return createHmac('sha256', secret);
    const bytes = bytesOf(secret);
    return createHmac('sha256', bytes.byteLength > 0 ? createSecretKey(bytes) : bytes);
  }
}

function bytesOf(data: ArrayBuffer | ArrayBufferView): Uint8Array {
  return ArrayBuffer.isView(data) ? new Uint8Array(data.buffer, data.byteOffset, data.byteLength) : new Uint8Array(data);
}
