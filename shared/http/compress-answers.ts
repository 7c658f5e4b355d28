import type { MiddlewareHandler } from 'hono';
import { compress } from 'hono/compress';

const gzipOrDeflate = compress();

/**
 * gzip (or deflate) for clients that accept it. API Gateway HTTP APIs do not compress, so
 * without this every page tree, search answer and reader page crossed the internet as is
 * (a 5,000-page tree is 3.3 MB of JSON, ~0.3 MB gzipped), and Lambda's 6 MB answer limit
 * was reached by uncompressed text. Hono's middleware picks the encoding from
 * `Accept-Encoding`, weakens ETags, adds `Vary`, and leaves `no-transform`, HEAD and 206 answers
 * alone. A request without `Accept-Encoding` skips it altogether: adding `Vary` after the
 * handler rebuilds the answer around its body stream (issue 17's measured cost).
 */
export const compressAnswers: MiddlewareHandler = (c, next) =>
  (c.req.header('accept-encoding') ? gzipOrDeflate(c, next) : next());
