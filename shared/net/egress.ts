/**
 * The one way the service makes an HTTP request to a URL someone gave it (OpenAPI
 * sources, file URLs, Git remotes, integration tunnels). Every hop is checked by
 * destination.ts and connected to the address that was checked (node:http with a pinned
 * `lookup`: the Host header and TLS server name stay the URL's host, so certificates are
 * verified as usual); redirects are followed here, one checked hop at a time; a connect
 * cap, a total cap and a byte cap hold while the body streams, and the body is never
 * read past its cap. Credentials in the URL become a Basic Authorization header, which
 * is dropped when a redirect leaves the origin.
 */
import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { pipeline, Transform, type Readable } from 'node:stream';
import { EgressError } from './egress-error.ts';
import { bareHostname, parseEgressUrl, resolveDestination, type Destination } from './destination.ts';

export interface EgressLimits {
  /** Largest body accepted (Content-Length or streamed), in bytes. */
  maxBytes: number;
  /** From the first DNS lookup to the last body byte, every redirect included. */
  timeoutMs: number;
  /** Per hop, until the TCP (and TLS) connection is up. */
  connectTimeoutMs?: number;
  /** Redirects followed; 0 returns a 3xx as the answer. */
  maxRedirects?: number;
}

export interface EgressRequest extends EgressLimits {
  url: string | URL;
  /** The field the URL came from: every error message starts with it. */
  label: string;
  method?: string;
  headers?: Record<string, string>;
  body?: Uint8Array | string;
  signal?: AbortSignal;
  /**
   * An origin the service configured itself (not one someone gave it) that may be private:
   * the own API for integration scripts. Only this exact origin; a redirect elsewhere is checked as usual.
   */
  trustedOrigin?: string;
}

export interface EgressResponse {
  /** The final URL (after redirects), without credentials. */
  url: string;
  status: number;
  statusText: string;
  /** Lower-case names; repeated headers joined with ", ". */
  headers: Record<string, string>;
  /** The body (bytes), cut with an EgressError at the byte cap or the time cap. Read it once: iterate it, or pipe it on. */
  body: Readable;
  bytes(): Promise<Buffer>;
  text(): Promise<string>;
  /** Drops the body unread and releases the connection and timers. */
  cancel(): void;
}

export const DEFAULT_CONNECT_TIMEOUT_MS = 5_000;
export const DEFAULT_MAX_REDIRECTS = 5;
const REDIRECTS = new Set([301, 302, 303, 307, 308]);

export async function egressFetch(request: EgressRequest): Promise<EgressResponse> {
  const { label, maxBytes, timeoutMs } = request;
  const maxRedirects = request.maxRedirects ?? DEFAULT_MAX_REDIRECTS;
  let url = parseEgressUrl(request.url, label);
  let method = (request.method ?? 'GET').toUpperCase();
  let body = request.body;
  let headers = basicAuthFromUrl(url, { ...lowerCased(request.headers ?? {}) });
  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(new EgressError('timeout', label, `no complete answer within ${timeoutMs} ms`)), timeoutMs);
  const signal = request.signal ? AbortSignal.any([deadline.signal, request.signal]) : deadline.signal;
  try {
    for (let redirects = 0; ; redirects++) {
      const destination = await abortable(resolveDestination(url, label, request.trustedOrigin), signal);
      const res = await send(url, destination, { method, headers, body }, signal, request.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS, label);
      const location = res.headers.location;
      if (maxRedirects > 0 && REDIRECTS.has(res.statusCode ?? 0) && location) {
        res.destroy();
        if (redirects >= maxRedirects) throw new EgressError('redirects', label, `more than ${maxRedirects} redirects`);
        const next = parseEgressUrl(resolveLocation(location, url, label), label);
        if (next.origin !== url.origin) delete headers.authorization;
        // As browsers do: 303, and 301/302 after a POST, continue as a GET without the body.
        if (res.statusCode === 303 || (method === 'POST' && (res.statusCode === 301 || res.statusCode === 302))) {
          method = 'GET';
          body = undefined;
          headers = Object.fromEntries(Object.entries(headers).filter(([name]) => !name.startsWith('content-')));
        }
        url = next;
        continue;
      }
      const declared = Number(res.headers['content-length']);
      if (declared > maxBytes) {
        res.destroy();
        throw new EgressError('too-large', label, `the response is larger than ${maxBytes} bytes`);
      }
      res.once('close', () => clearTimeout(timer));
      return response(res, url, signal, maxBytes, label);
    }
  } catch (error) {
    clearTimeout(timer);
    throw translate(error, signal, label, url);
  }
}

/** Reads a whole (capped) body. */
export async function readAll(body: AsyncIterable<Uint8Array>): Promise<Buffer> {
  const chunks: Uint8Array[] = [];
  for await (const chunk of body) chunks.push(chunk);
  return Buffer.concat(chunks);
}

function response(res: IncomingMessage, url: URL, signal: AbortSignal, maxBytes: number, label: string): EgressResponse {
  const shown = new URL(url);
  shown.username = '';
  shown.password = '';
  const body = cappedBody(res, maxBytes, (error) => translate(error, signal, label, url), label);
  return {
    url: shown.toString(),
    status: res.statusCode ?? 0,
    statusText: res.statusMessage ?? '',
    headers: Object.fromEntries(Object.entries(res.headers).map(([name, value]) => [name, Array.isArray(value) ? value.join(', ') : String(value ?? '')])),
    body,
    bytes: () => readAll(body),
    text: async () => (await readAll(body)).toString('utf8'),
    cancel: () => res.destroy(),
  };
}

function send(
  url: URL, destination: Destination, init: { method: string; headers: Record<string, string>; body?: Uint8Array | string },
  signal: AbortSignal, connectTimeoutMs: number, label: string,
): Promise<IncomingMessage> {
  const secure = url.protocol === 'https:';
  // The connection goes to the checked addresses whatever the resolver would say now
  // (all of them when Node tries several at once, as its happy-eyeballs connect does).
  const [first] = destination.addresses;
  const pinned = ((_host: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
    if (options?.all) callback(null, destination.addresses);
    else callback(null, first!.address, first!.family);
  }) as unknown as LookupFunction;
  return new Promise((resolve, reject) => {
    const req = (secure ? https : http).request({
      method: init.method,
      hostname: destination.hostname,
      port: destination.port,
      path: `${url.pathname}${url.search}`,
      headers: { ...init.headers, host: url.host },
      lookup: pinned,
      agent: false,
      signal,
      ...(secure && !isIP(destination.hostname) ? { servername: destination.hostname } : {}),
    }, resolve);
    const connectTimer = setTimeout(() => {
      req.destroy(new EgressError('timeout', label, `could not connect to ${destination.hostname} within ${connectTimeoutMs} ms`));
    }, connectTimeoutMs);
    req.once('socket', (socket) => socket.once(secure ? 'secureConnect' : 'connect', () => clearTimeout(connectTimer)));
    req.once('response', () => clearTimeout(connectTimer));
    req.once('error', (error) => {
      clearTimeout(connectTimer);
      reject(error);
    });
    req.end(init.body);
  });
}

/**
 * The body as a stream that counts its bytes and fails at the cap (then the response is
 * dropped); any failure reaches the reader translated (a time cap's abort as its timeout). A
 * stream rather than an async generator over `res`: piped on (the Git relay's packs, tens of
 * MB), each chunk passes on as it came, where an async iterator's read() joins all that is
 * buffered into a new buffer (issue 17: the relay spent ~190 ms of a 3.6 s import, and the
 * collector more, copying a 72 MB pack so). `pipeline` ends the body when `res` closes early,
 * and drops `res` when the body is destroyed or fails.
 */
function cappedBody(res: IncomingMessage, maxBytes: number, translateError: (error: unknown) => Error, label: string): Readable {
  let size = 0;
  const body = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      size += chunk.length;
      if (size > maxBytes) done(new EgressError('too-large', label, `the response is larger than ${maxBytes} bytes`));
      else done(null, chunk);
    },
    destroy(error, done) {
      res.destroy();
      done(error ? translateError(error) : null);
    },
  });
  pipeline(res, body, () => {});
  return body;
}

/** Clear errors that name the host and an error code, never what the remote sent. */
function translate(error: unknown, signal: AbortSignal, label: string, url: URL): Error {
  if (error instanceof EgressError) return error;
  if (signal.aborted) return signal.reason instanceof EgressError ? signal.reason : (signal.reason as Error) ?? (error as Error);
  const code = (error as NodeJS.ErrnoException)?.code ?? (error as Error)?.name ?? 'error';
  return new EgressError('network', label, `${bareHostname(url)} could not be reached (${code})`);
}

function resolveLocation(location: string, base: URL, label: string): URL {
  try {
    return new URL(location, base);
  } catch {
    throw new EgressError('network', label, `${bareHostname(base)} redirected to an invalid URL`);
  }
}

function basicAuthFromUrl(url: URL, headers: Record<string, string>): Record<string, string> {
  if (url.username || url.password) {
    const pair = `${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`;
    headers.authorization ??= `Basic ${Buffer.from(pair).toString('base64')}`;
    url.username = '';
    url.password = '';
  }
  return headers;
}

const lowerCased = (headers: Record<string, string>) => Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));

function abortable<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  signal.throwIfAborted();
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}
