import { GetObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { promisify } from 'node:util';
import { gunzip, gzip } from 'node:zlib';
import { s3 } from '../../aws/clients.ts';
import { config } from '../../config.ts';
import type { Manifest } from '../types.ts';

/**
 * Indexes derived from a revision's content (the search index, the link index). A
 * manifest names every document by its hash, so whatever is computed from a manifest is
 * a pure function of the manifest's hash: it is stored once in S3 under a deterministic
 * key, `indexes/<kind>/v<version>/<manifestHash>.json.gz` (gzipped JSON: a search index
 * compresses about 7x), and never changes. Two revisions
 * (or two spaces, after a duplicate) with the same manifest share it; two requests that
 * build it at the same time write the same bytes.
 *
 * Reads go: memory (LRU, bounded by serialized size) -> the same build already running in
 * this instance -> S3 -> build (loads each page document once) and store.
 */
export interface DerivedIndexOptions<V> {
  kind: string;
  /** Bump when the stored format changes: older objects are then ignored, not misread. */
  version: number;
  /** Memory budget, in bytes of serialized JSON. */
  maxCachedBytes: number;
  build(manifest: Manifest): Promise<unknown>;
  decode(stored: unknown): V;
}

export class DerivedIndexStore<V> {
  /** Counters, for tests and logs: how often an index was built or read from S3. */
  readonly stats = { builds: 0, loads: 0, memoryHits: 0 };
  private readonly cache = new Map<string, { value: V; size: number }>();
  private cachedBytes = 0;
  private readonly inFlight = new Map<string, Promise<V>>();

  private readonly options: DerivedIndexOptions<V>;

  constructor(options: DerivedIndexOptions<V>) {
    this.options = options;
  }

  key(manifestHash: string): string {
    return `indexes/${this.options.kind}/v${this.options.version}/${manifestHash}.json.gz`;
  }

  async get(manifestHash: string, manifest: Manifest): Promise<V> {
    const hit = this.cache.get(manifestHash);
    if (hit) {
      this.cache.delete(manifestHash);
      this.cache.set(manifestHash, hit);
      this.stats.memoryHits++;
      return hit.value;
    }
    const running = this.inFlight.get(manifestHash);
    if (running) return running;
    const pending = this.loadOrBuild(manifestHash, manifest).finally(() => this.inFlight.delete(manifestHash));
    this.inFlight.set(manifestHash, pending);
    return pending;
  }

  /** Drops the in-memory copies (tests: the next read comes from S3). */
  forgetCached(): void {
    this.cache.clear();
    this.cachedBytes = 0;
  }

  private async loadOrBuild(manifestHash: string, manifest: Manifest): Promise<V> {
    const key = this.key(manifestHash);
    const storedText = await readObject(key);
    let text: string;
    if (storedText !== undefined) {
      text = storedText;
      this.stats.loads++;
    } else {
      text = JSON.stringify(await this.options.build(manifest));
      const body = await gzipAsync(text);
      await s3().send(new PutObjectCommand({ Bucket: config.bucketName, Key: key, Body: body, ContentType: 'application/gzip' }));
      this.stats.builds++;
    }
    const value = this.options.decode(JSON.parse(text));
    this.remember(manifestHash, value, text.length);
    return value;
  }

  private remember(manifestHash: string, value: V, size: number): void {
    this.cache.set(manifestHash, { value, size });
    this.cachedBytes += size;
    // Least recently used first; the newest index stays even when it alone exceeds the budget.
    for (const [key, entry] of this.cache) {
      if (this.cachedBytes <= this.options.maxCachedBytes || key === manifestHash) break;
      this.cache.delete(key);
      this.cachedBytes -= entry.size;
    }
  }
}

const gzipAsync = promisify(gzip);
const gunzipAsync = promisify(gunzip);

async function readObject(key: string): Promise<string | undefined> {
  try {
    const out = await s3().send(new GetObjectCommand({ Bucket: config.bucketName, Key: key }));
    return (await gunzipAsync(await out.Body!.transformToByteArray())).toString('utf8');
  } catch (error) {
    const e = error as { name?: string; $metadata?: { httpStatusCode?: number } };
    if (e.name === 'NoSuchKey' || e.name === 'NotFound' || e.$metadata?.httpStatusCode === 404) return undefined;
    throw error;
  }
}
