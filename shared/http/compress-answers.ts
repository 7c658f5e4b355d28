import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import type { Context, MiddlewareHandler } from 'hono';
import { COMPRESSIBLE_CONTENT_TYPE_REGEX, compress } from 'hono/compress';
import { parseAccept } from 'hono/utils/accept';

const gzipBytes = promisify(gzip);

/**
 * Answers smaller than this go as they are: gzip saves nothing on them (they fit one TCP
 * segment either way) and costs ~250 µs of CPU for a 1 KB JSON answer, a quarter of a whole
 * `GET /spaces/{id}` (issue 17). Hono's own default.
 */
export const MIN_COMPRESSED_BYTES = 1024;

const gzipOrDeflate = compress({ threshold: MIN_COMPRESSED_BYTES });

/**
 * gzip (or deflate) for clients that accept it. API Gateway HTTP APIs do not compress, so
 * without this every page tree, search answer and reader page crossed the internet as is
 * (a 5,000-page tree is 3.3 MB of JSON, ~0.3 MB gzipped), and Lambda's 6 MB answer limit
 * was reached by uncompressed text. Hono's middleware picks the encoding from
 * `Accept-Encoding`, weakens ETags, adds `Vary`, and leaves `no-transform`, HEAD, 206 and
 * answers under MIN_COMPRESSED_BYTES alone. A request without `Accept-Encoding` skips it
 * altogether: adding `Vary` after the handler rebuilds the answer around its body stream
 * (issue 17's measured cost).
 */
export const compressAnswers: MiddlewareHandler = (c, next) =>
  (c.req.header('accept-encoding')
    ? gzipOrDeflate(c, async () => {
      await next();
      await measureSmallAnswer(c);
    })
    : next());

/**
 * Hono applies its threshold only to answers that state their Content-Length, and `c.json`
 * answers do not. So a compressible answer of unknown length is read up to the threshold:
 * when it ends before, it goes on as those bytes with their Content-Length (and Hono leaves
 * it alone); else it goes on as a stream of what was read and the rest.
 */
async function measureSmallAnswer(c: Context): Promise<void> {
  const { res } = c;
  if (!res.body || res.headers.has('content-length') || res.headers.has('content-encoding')) return;
  if (!COMPRESSIBLE_CONTENT_TYPE_REGEX.test(res.headers.get('content-type') ?? '')) return;
  const reader = res.body.getReader();
  const read: Uint8Array[] = [];
  let size = 0;
  while (size < MIN_COMPRESSED_BYTES) {
    const chunk = await reader.read();
    if (chunk.done) {
      const bytes = Buffer.concat(read, size);
      res.headers.set('content-length', String(size));
      c.res = undefined;
      c.res = new Response(bytes, { status: res.status, statusText: res.statusText, headers: res.headers });
      return;
    }
    read.push(chunk.value);
    size += chunk.value.byteLength;
  }
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of read) controller.enqueue(chunk);
    },
    async pull(controller) {
      const chunk = await reader.read();
      if (chunk.done) controller.close();
      else controller.enqueue(chunk.value);
    },
    cancel: (reason) => reader.cancel(reason),
  });
  c.res = undefined;
  c.res = new Response(stream, { status: res.status, statusText: res.statusText, headers: res.headers });
}

/** Whether the request accepts gzip: by name, else through `*`, with a q above 0. */
function acceptsGzip(c: Context): boolean {
  const header = c.req.header('accept-encoding');
  if (!header) return false;
  const accepts = parseAccept(header);
  const gzip = accepts.find((a) => a.type.toLowerCase() === 'gzip') ?? accepts.find((a) => a.type === '*');
  return (gzip?.q ?? 0) > 0;
}

/**
 * An answer an instance keeps and serves many times (a page tree, a rendered reader page),
 * with its gzip: compressing it again for every client that accepts gzip (fetch,
 * `@gitbook/api` and browsers always do) cost more than the rest of such a request.
 */
export interface KeptBytes {
  bytes: Buffer;
  /** The bytes gzipped, made once, the first time a client that accepts gzip asks (about a tenth of the bytes). */
  gzipped?: Promise<Buffer>;
}

/** The kept answer's gzip, made on the thread pool the first time; a failure is not kept. */
export function gzipOf(kept: KeptBytes): Promise<Buffer> {
  kept.gzipped ??= gzipBytes(kept.bytes).catch((error: unknown) => {
    kept.gzipped = undefined;
    throw error;
  });
  return kept.gzipped;
}

/**
 * A kept answer: gzipped (its kept gzip) to a client that accepts gzip, with `Vary` and a
 * weakened ETag as the middleware does, and not compressed again (the middleware leaves an
 * answer that has its Content-Encoding); else as it is. Either way with its length, so the
 * middleware need not read it to know it.
 */
export async function answerBytes(c: Context, kept: KeptBytes, contentType: string): Promise<Response> {
  const gzip = kept.bytes.length >= MIN_COMPRESSED_BYTES && acceptsGzip(c);
  const body = gzip ? await gzipOf(kept) : kept.bytes;
  if (gzip) {
    c.header('Content-Encoding', 'gzip');
    c.header('Vary', 'Accept-Encoding', { append: true });
    const etag = c.res.headers.get('ETag');
    if (etag && !etag.startsWith('W/')) c.header('ETag', `W/${etag}`);
  }
  c.header('Content-Type', contentType);
  c.header('Content-Length', String(body.length));
  return c.body(new Uint8Array(body.buffer as ArrayBuffer, body.byteOffset, body.byteLength));
}
