import { createServer, type RequestListener, type Server as HttpServer } from 'node:http';
import type { AddressInfo, Server } from 'node:net';
import { Server as TlsServer } from 'node:tls';
import { useStarted } from './lifecycle.ts';

/**
 * A server of a test's own on a free loopback port: what the service talks to (a spec host,
 * a webhook receiver, an AWS endpoint, an identity provider) or a page loads from.
 */
export interface LoopbackServer<S extends Server = HttpServer> {
  server: S;
  port: number;
  /** `http://127.0.0.1:<port>`, no trailing slash (`https://` for a TLS server, its host as given). */
  url: string;
  /** Ends its open connections too: a request left hanging must not hold the test file. */
  close(): Promise<void>;
}

export interface LoopbackOptions {
  /** 127.0.0.1 unless told (`localhost` for a TLS certificate made out to it, `::1`). */
  host?: string;
  /** A free one unless told (the IPv6 twin of a server on the same port). */
  port?: number;
}

/** Starts an HTTP server answering with `handler`, or listens with `server` (HTTPS, HTTP/2); rejects if it cannot listen. */
export async function startLoopbackServer(handler: RequestListener, options?: LoopbackOptions): Promise<LoopbackServer>;
export async function startLoopbackServer<S extends Server>(server: S, options?: LoopbackOptions): Promise<LoopbackServer<S>>;
export async function startLoopbackServer(from: RequestListener | Server, options: LoopbackOptions = {}): Promise<LoopbackServer<Server>> {
  const server = typeof from === 'function' ? createServer(from) : from;
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  const scheme = server instanceof TlsServer ? 'https' : 'http';
  return {
    server,
    port,
    url: `${scheme}://${host.includes(':') ? `[${host}]` : host}:${port}`,
    close: () => new Promise<void>((resolve, reject) => {
      // HTTP/1 servers only (an HTTP/2 server closes its sessions itself).
      (server as Partial<HttpServer>).closeAllConnections?.();
      server.close((error) => (error ? reject(error) : resolve()));
    }),
  };
}

/**
 * A loopback HTTP server started before the file's (or describe block's) tests and closed
 * after them; `url` and `port` answer once it started (in tests and in later hooks).
 */
export function useLoopbackServer(handler: RequestListener, options?: LoopbackOptions): { readonly url: string; readonly port: number } {
  const current = useStarted('useLoopbackServer()', () => startLoopbackServer(handler, options));
  return {
    get url() {
      return current().url;
    },
    get port() {
      return current().port;
    },
  };
}
