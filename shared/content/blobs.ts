import { GetObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { sha256Hex } from '../ids.ts';
import { s3 } from '../aws/clients.ts';
import { config } from '../config.ts';
import { nowMs } from '../clock.ts';
import { deepFreeze } from '../deep-freeze.ts';
import { MULTIPART_THRESHOLD_BYTES, putLargeObject } from '../aws/large-put.ts';

/**
 * Content-addressed blobs in S3 (`blobs/<sha256>`): page documents, manifests, file bytes.
 * A blob never changes, so it is shared by every revision and space that names it (a
 * duplicated space copies no bytes) and cached in memory forever (LRU-bounded).
 *
 * A JSON blob is named by a reference: its SHA-256 alone when it is an object of its own,
 * or `<sha256>@<pack sha256>:<offset>+<length>` when it was written inside a pack of many
 * (blob-packs.ts: a Git import's page documents, one PUT for hundreds of pages). Either
 * way the reference's first 64 characters are the hash of the value's JSON.
 */
const CACHE_LIMIT_BYTES = 64 * 1024 * 1024;
/**
 * A cached blob is PUT again when this process has not PUT it within this time: the PUT
 * refreshes the object's LastModified, which the blob sweep's grace period relies on
 * (shared/content/blob-sweep.ts) — a blob only read, or PUT long ago, may have been swept.
 */
const REPUT_AFTER_MS = 60 * 60 * 1000;
/**
 * A blob this process wrote is cached as its text and parsed on its first read: an import
 * writes thousands of documents it never reads back, and parsing each again only to cache
 * it was a second full parse per document.
 */
interface CacheEntry { value?: unknown; text?: string; size: number; putAtMs?: number }
const cache = new Map<string, CacheEntry>();
let cachedBytes = 0;

export const blobKey = (hash: string) => `blobs/${hash}`;

const PACKED_REF = /^([0-9a-f]{64})@([0-9a-f]{64}):(\d+)\+(\d+)$/;

/** Where a packed JSON blob lives: its pack (a blob) and its bytes within it. */
export interface PackedLocation { pack: string; offset: number; length: number }

/** The reference of a JSON value stored at `location` inside a pack. */
export const packedRef = (hash: string, { pack, offset, length }: PackedLocation) => `${hash}@${pack}:${offset}+${length}`;

function packedLocation(ref: string): PackedLocation | undefined {
  const match = PACKED_REF.exec(ref);
  return match ? { pack: match[2]!, offset: Number(match[3]), length: Number(match[4]) } : undefined;
}

/** The hash of the JSON a reference names: equal values give equal hashes, wherever they are stored. */
export const contentHashOf = (ref: string): string => (packedLocation(ref) ? ref.slice(0, 64) : ref);

/** The blob (S3 object) a reference needs: its pack, or the blob itself. */
export const storedBlobOf = (ref: string): string => packedLocation(ref)?.pack ?? ref;
/**
 * A resized WebP variant of an image blob (shared/content/images), keyed by the source's
 * hash and the width: under `blobs/` (the same grants), but not a sha256, so the blob sweep
 * leaves it alone.
 */
export const imageVariantKey = (sourceHash: string, width: number) => `${blobKey(sourceHash)}.w${width}.webp`;

/** A blob's address: the SHA-256 of its bytes (or of the text's UTF-8). */
export const hashBytes = (bytes: Uint8Array | string): string => sha256Hex(bytes);

/**
 * When this process last PUT each byte blob (hash and content type -> ms), so that the same
 * bytes stored again within REPUT_AFTER_MS (a file in every import of a repository) are not
 * sent again, as for JSON blobs; another content type is PUT (it replaces the object's).
 * At most BYTES_PUT_LIMIT entries, oldest forgotten first.
 */
const bytesPutAt = new Map<string, number>();
const BYTES_PUT_LIMIT = 20_000;

export async function putBytesBlob(bytes: Uint8Array, contentType = 'application/octet-stream'): Promise<string> {
  const hash = hashBytes(bytes);
  const key = `${hash} ${contentType}`;
  const putAtMs = bytesPutAt.get(key);
  if (putAtMs !== undefined && nowMs() - putAtMs <= REPUT_AFTER_MS) return hash;
  await putBlob(hash, bytes, contentType);
  bytesPutAt.delete(key);
  bytesPutAt.set(key, nowMs());
  if (bytesPutAt.size > BYTES_PUT_LIMIT) bytesPutAt.delete(bytesPutAt.keys().next().value!);
  return hash;
}

/**
 * PUTs a blob under its SHA-256, which is already known: S3 checks the bytes against it
 * (x-amz-checksum-sha256, instead of the SDK computing a CRC32 of its own) and the request
 * signature uses it as the payload hash, so the body is hashed once, not three times.
 * A blob of MULTIPART_THRESHOLD_BYTES or more goes up in parts instead (shared/aws/large-put.ts):
 * same key, so the same dedup; S3 checks each part's checksum, as there is no whole-object
 * SHA-256 check for a multipart upload.
 */
async function putBlob(hash: string, body: Uint8Array | string, contentType: string): Promise<void> {
  if ((typeof body === 'string' ? Buffer.byteLength(body) : body.length) >= MULTIPART_THRESHOLD_BYTES) {
    await putLargeObject({ bucket: config.bucketName, key: blobKey(hash), body: typeof body === 'string' ? Buffer.from(body) : body, contentType });
    return;
  }
  const command = new PutObjectCommand({
    Bucket: config.bucketName, Key: blobKey(hash), Body: body, ContentType: contentType, ChecksumSHA256: Buffer.from(hash, 'hex').toString('base64'),
  });
  command.middlewareStack.add((next) => (args) => {
    const request = args.request as { headers?: Record<string, string> };
    if (request.headers) request.headers['x-amz-content-sha256'] = hash;
    return next(args);
  }, { step: 'build', name: 'knownPayloadSha256' });
  await s3().send(command);
}

/** A byte blob; `abortSignal` bounds the read (an OpenAPI file of a space is read within a fetched spec's time). */
export async function getBytesBlob(hash: string, options: { abortSignal?: AbortSignal } = {}): Promise<Uint8Array> {
  const out = await s3().send(new GetObjectCommand({ Bucket: config.bucketName, Key: blobKey(hash) }), options);
  return out.Body!.transformToByteArray();
}

/** Stores a JSON value; the hash is of its serialization, so equal values share a blob. */
export function putJsonBlob(value: unknown): Promise<string> {
  return putJsonText(JSON.stringify(value));
}

/** putJsonBlob of a value already serialized (and maybe hashed) by the caller (blob-packs.ts). */
export async function putJsonText(text: string, hash = hashBytes(text)): Promise<string> {
  const putAtMs = cache.get(hash)?.putAtMs;
  if (putAtMs === undefined || nowMs() - putAtMs > REPUT_AFTER_MS) {
    await putBlob(hash, text, 'application/json');
    // The cached copy is the text (parsed when first read), so later changes to `value` cannot reach it.
    remember(hash, { text, size: text.length, putAtMs: nowMs() });
  }
  return hash;
}

/**
 * A JSON blob, shared with every other reader of the same hash: callers must treat it as
 * read-only (code that edits content clones it first, as applyChanges does).
 */
export async function getJsonBlob<T>(ref: string): Promise<T> {
  const hit = recall(ref);
  if (hit) {
    if (hit.text !== undefined) {
      hit.value = deepFreeze(JSON.parse(hit.text));
      hit.text = undefined;
    }
    return hit.value as T;
  }
  const location = packedLocation(ref);
  const text = location ? await packedText(ref, location) : await (await s3().send(new GetObjectCommand({ Bucket: config.bucketName, Key: blobKey(ref) }))).Body!.transformToString();
  const value = JSON.parse(text) as T;
  remember(ref, { value: deepFreeze(value), size: text.length });
  return value;
}

const decoder = new TextDecoder();
/** Packs being read, so that the pages of one pack read at once (an index build) share one GET. */
const packReads = new Map<string, Promise<Uint8Array>>();
const packKey = (hash: string) => `pack:${hash}`;

/**
 * The text of a packed JSON blob. The whole pack is read once and kept (bounded by the
 * cache): the pages of a pack are a stretch of one import's tree, read together by index
 * builds and exports, and by readers moving between neighbouring pages. Checked against its
 * hash, as S3 checks a blob's bytes when it is written.
 */
async function packedText(ref: string, { pack, offset, length }: PackedLocation): Promise<string> {
  const bytes = await packBytes(pack);
  const text = decoder.decode(bytes.subarray(offset, offset + length));
  if (offset + length > bytes.length || hashBytes(text) !== contentHashOf(ref)) throw new Error(`Blob ${ref} does not match its pack`);
  return text;
}

async function packBytes(hash: string): Promise<Uint8Array> {
  const hit = recall(packKey(hash));
  if (hit) return hit.value as Uint8Array;
  let reading = packReads.get(hash);
  if (!reading) {
    reading = getBytesBlob(hash).then((bytes) => {
      rememberPack(hash, bytes);
      return bytes;
    }).finally(() => packReads.delete(hash));
    packReads.set(hash, reading);
  }
  return reading;
}

/**
 * Forgets every blob this process cached or PUT, as a new process would start: for tests,
 * whose files share a process (test/support/file-state.ts) and may name another bucket.
 */
export function forgetBlobCaches(): void {
  cache.clear();
  cachedBytes = 0;
  bytesPutAt.clear();
}

/** Keeps a pack's bytes for the reads of its blobs (a pack this process wrote is read without a GET). */
export function rememberPack(hash: string, bytes: Uint8Array): void {
  remember(packKey(hash), { value: bytes, size: bytes.length });
}

/** A cached entry, made the most recently used. */
function recall(key: string): CacheEntry | undefined {
  const hit = cache.get(key);
  if (hit) {
    cache.delete(key);
    cache.set(key, hit);
  }
  return hit;
}

function remember(hash: string, entry: CacheEntry): void {
  const previous = cache.get(hash);
  if (previous) {
    cache.delete(hash);
    cachedBytes -= previous.size;
    // A re-PUT of a blob already read keeps its parsed value.
    if (previous.value !== undefined && entry.value === undefined) entry = { ...entry, value: previous.value, text: undefined };
  }
  cache.set(hash, entry);
  cachedBytes += entry.size;
  for (const [key, entry] of cache) {
    if (cachedBytes <= CACHE_LIMIT_BYTES) break;
    cache.delete(key);
    cachedBytes -= entry.size;
  }
}
