/**
 * JSON blobs written many at a time, a pack per PUT: a Git import stores a document per page,
 * and one S3 PUT per document was most of an import's CPU once pages were parsed (issue 17:
 * ~1 ms of SDK work per object, 1,000 objects for a 1,000-page repository). A pack is a blob
 * like any other (`blobs/<sha256>`, kept by the blob sweep while a manifest names one of its
 * documents): the documents' JSON, one per line. Each document's reference names its pack and
 * its bytes there (blobs.ts), and reads back through getJsonBlob like any JSON blob.
 */
import { contentHashOf, hashBytes, packedRef, putBytesBlob, putJsonText, rememberPack } from './blobs.ts';

/** A pack is written once it holds this many bytes: a few hundred ordinary pages, one GET for a reader. */
export const PACK_BYTES = 256 * 1024;
/** A document this large is an object of its own, so that reading it never fetches a pack of others. */
const OWN_BLOB_BYTES = PACK_BYTES / 4;

interface Entry { hash: string; offset: number; length: number; resolve(ref: string): void; reject(error: unknown): void }

export class JsonBlobPacker {
  private chunks: Buffer[] = [];
  private entries: Entry[] = [];
  private size = 0;
  private readonly writes: Promise<void>[] = [];

  /**
   * Stores `value`; the promise is its reference, settled once its pack is written (awaiting
   * it before close() waits for the pack to fill). `reuse` maps content hashes to references
   * already stored (a previous import's): an equal value takes that reference, unwritten.
   */
  add(value: unknown, reuse?: ReadonlyMap<string, string>): Promise<string> {
    const text = JSON.stringify(value);
    const bytes = Buffer.from(text);
    const hash = hashBytes(bytes);
    const existing = reuse?.get(hash);
    if (existing) return Promise.resolve(existing);
    if (bytes.length >= OWN_BLOB_BYTES) return putJsonText(text, hash);
    const written = new Promise<string>((resolve, reject) => {
      this.entries.push({ hash, offset: this.size, length: bytes.length, resolve, reject });
    });
    this.chunks.push(bytes, NEWLINE);
    this.size += bytes.length + 1;
    if (this.size >= PACK_BYTES) this.flush();
    return written;
  }

  /** Writes what is left; rejects when any pack failed to be written. */
  async close(): Promise<void> {
    this.flush();
    await Promise.all(this.writes);
  }

  private flush(): void {
    if (this.entries.length === 0) return;
    const bytes = Buffer.concat(this.chunks, this.size);
    const entries = this.entries;
    this.chunks = [];
    this.entries = [];
    this.size = 0;
    const write = putBytesBlob(bytes, 'application/x-ndjson').then((pack) => {
      rememberPack(pack, bytes);
      for (const e of entries) e.resolve(packedRef(e.hash, { pack, offset: e.offset, length: e.length }));
    }, (error: unknown) => {
      for (const e of entries) e.reject(error);
      throw error;
    });
    // Handled here (a failed import may never call close()); close() still sees the failure.
    write.catch(() => {});
    this.writes.push(write);
  }
}

const NEWLINE = Buffer.from('\n');

/** Content hash -> reference of every document a manifest names (what a re-import may reuse). */
export function referencesByContent(refs: Iterable<string | undefined>): Map<string, string> {
  const out = new Map<string, string>();
  for (const ref of refs) if (ref) out.set(contentHashOf(ref), ref);
  return out;
}
