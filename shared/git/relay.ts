/**
 * The git CLI's way out: a loopback HTTP server that forwards each smart-HTTP request of a
 * git process (ref discovery, upload-pack) to the remote through the egress guard, so the
 * CLI gets the same checks as every other outbound request (each hop checked and pinned,
 * redirects followed here, byte and time caps while the pack streams) and never sees the
 * credentials: they are added here, and dropped by the guard when a redirect leaves the
 * origin. Only requests under a random path prefix are served, on 127.0.0.1.
 *
 * A refusal of the guard or an HTTP error of the remote is kept, so the caller reports it
 * rather than the git CLI's own summary of it.
 */
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { pipeline } from 'node:stream/promises';
import { egressFetch, readAll } from '../net/egress.ts';
import { isEgressError, type EgressError } from '../net/egress-error.ts';
import { gitFetchLimits } from './egress-http.ts';

/**
 * Headers of git's requests the remote needs (protocol v2, request encoding, and git's user
 * agent: some hosts answer the smart protocol only to `git/...`); nothing else leaves.
 */
const FORWARDED_REQUEST_HEADERS = ['accept', 'content-type', 'content-encoding', 'git-protocol', 'user-agent'];
/** Headers of the remote's answers git needs. */
const FORWARDED_RESPONSE_HEADERS = ['content-type', 'content-encoding', 'cache-control', 'expires', 'pragma'];
/** Largest request body git may send through the relay (a fetch's wants and haves). */
const MAX_REQUEST_BYTES = 16 * 1024 * 1024;

/** An HTTP error status of the remote, in the shape sync.ts describes ("answered HTTP n"). */
export class RemoteHttpError extends Error {
  readonly code = 'HttpError';
  readonly data: { statusCode: number };
  constructor(statusCode: number) {
    super(`HTTP ${statusCode}`);
    this.data = { statusCode };
  }
}

export class GitRelay {
  /** The first refusal of the guard or network failure, else the first HTTP error of the remote. */
  private failure: EgressError | RemoteHttpError | Error | undefined;

  private readonly server: http.Server;
  readonly url: string;

  private constructor(server: http.Server, url: string) {
    this.server = server;
    this.url = url;
  }

  /** `remote` may hold credentials (user:password@): they become the requests' Basic authorization. */
  static async start(remote: string): Promise<GitRelay> {
    const prefix = `/${randomBytes(16).toString('hex')}`;
    const base = remote.replace(/\/+$/, '');
    let relay: GitRelay | undefined;
    const server = http.createServer((req, res) => {
      void relay!.forward(req, res, prefix, base);
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve());
    });
    const { port } = server.address() as AddressInfo;
    relay = new GitRelay(server, `http://127.0.0.1:${port}${prefix}`);
    return relay;
  }

  /** What went wrong on the way to the remote, if anything did. */
  get error(): Error | undefined {
    return this.failure;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private remember(error: Error): void {
    // A refusal or a network failure explains more than an HTTP status that may follow it.
    if (!this.failure || (this.failure instanceof RemoteHttpError && !(error instanceof RemoteHttpError))) this.failure = error;
  }

  private async forward(req: IncomingMessage, res: ServerResponse, prefix: string, base: string): Promise<void> {
    try {
      if (!req.url?.startsWith(`${prefix}/`)) {
        res.writeHead(404).end();
        return;
      }
      const headers: Record<string, string> = {};
      for (const name of FORWARDED_REQUEST_HEADERS) {
        const value = req.headers[name];
        if (typeof value === 'string') headers[name] = value;
      }
      const body = req.method === 'POST' ? await readCapped(req) : undefined;
      const answer = await egressFetch({ url: `${base}${req.url.slice(prefix.length)}`, label: 'url', method: req.method, headers, body, ...gitFetchLimits });
      if (answer.status >= 400) this.remember(new RemoteHttpError(answer.status));
      const out: Record<string, string> = {};
      for (const name of FORWARDED_RESPONSE_HEADERS) if (answer.headers[name]) out[name] = answer.headers[name]!;
      res.writeHead(answer.status, out);
      // The body is a stream: piped, its chunks pass on as they came (shared/net/egress.ts).
      await pipeline(answer.body, res);
    } catch (error) {
      this.remember(isEgressError(error) ? error : (error as Error));
      if (!res.headersSent) res.writeHead(502).end();
      else res.destroy();
    }
  }
}

async function readCapped(req: IncomingMessage): Promise<Buffer> {
  let size = 0;
  async function* capped() {
    for await (const chunk of req as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > MAX_REQUEST_BYTES) throw new Error(`git sent a request larger than ${MAX_REQUEST_BYTES} bytes`);
      yield chunk;
    }
  }
  return readAll(capped());
}
